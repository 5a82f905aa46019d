// Keeps the rows a match run writes, per recall in the order written: what an incremental run carries over.
import type { OutputFormat } from '../../output/format-registry.js';
import type { Renderer } from '../../output/render-contract.js';
import type { RecordOutput, RecordSink } from '../../runtime/files/record-output.js';

/** Rows by recall id, each recall's rows in the order they were written (a map keeps its keys' first order). */
export class RowCapture {
  readonly byRecall = new Map<number, Record<string, unknown>[]>();

  add(rows: readonly Record<string, unknown>[]): void {
    for (const row of rows) {
      const id = row.recall_id;
      if (typeof id !== 'number') continue;
      const held = this.byRecall.get(id);
      if (held) held.push(row);
      else this.byRecall.set(id, [row]);
    }
  }
}

function capturing(renderer: Renderer, capture: RowCapture): Renderer {
  return {
    write: (rows) => {
      capture.add(rows);
      return renderer.write(rows);
    },
    end: () => renderer.end(),
    get count() {
      return renderer.count;
    },
  };
}

/** `output` as it is, its rows also kept in `capture`. */
export function teeOutput(output: RecordOutput, capture: RowCapture): RecordOutput {
  return {
    format: output.format,
    toFile: output.toFile,
    write: (fill, failed) =>
      output.write((sink) => {
        const tee: RecordSink = {
          format: sink.format,
          target: sink.target,
          toTerminal: sink.toTerminal,
          renderer: (spec) => capturing(sink.renderer(spec), capture),
          rows: (spec, rows) => {
            capture.add(rows);
            return sink.rows(spec, rows);
          },
          text: (text) => sink.text(text),
          document: (doc) => sink.document(doc),
        };
        return fill(tee);
      }, failed),
  };
}

/**
 * An output that writes nothing and keeps every row: for the recalls an incremental run checks again. It takes the
 * run's own format, so the rows are made as the run's output would make them.
 */
export function captureOnly(capture: RowCapture, format: OutputFormat): RecordOutput {
  const renderer = (): Renderer => {
    let count = 0;
    return {
      write: async (rows) => {
        capture.add(rows);
        count += rows.length;
      },
      end: async () => {},
      get count() {
        return count;
      },
    };
  };
  const sink = { format, renderer } as unknown as RecordSink;
  return { format, toFile: false, write: (fill) => fill(sink) };
}
