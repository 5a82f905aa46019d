// The rows a streamed CSV's match pass reads again, as byte spans of the file: the rest is hashed, never parsed twice.
import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { CatalogueChangedError, readError } from './catalogue.js';

/**
 * Spans kept at most (32 bytes each): past it the match pass reads the whole file again, as it would without them.
 * Rows next to each other share a span, so only a catalogue whose every other row shares something with a recall
 * gets near it.
 */
const MAX_SPANS = 1 << 19;
const CHUNK = 1 << 20;

/**
 * Runs of consecutive rows by where they are in the file: the header row first (no rows), then each run's first
 * byte, its end (past its last line break), its first line and how many rows it holds.
 */
export class RowSpans {
  private data = new Float64Array(4 * 64);
  private count = 0;
  /** False once a row came without its bytes (a file read as text, not UTF-8) or there were too many spans. */
  usable = true;

  /** The header row: bytes 0 to `end`. */
  header(end: number): void {
    this.count = 0;
    this.push(0, end, 1, 0);
  }

  /** Forgets the rows added (the header stays): a run from the first row on replaces them. */
  keepHeader(): void {
    this.count = Math.min(this.count, 1);
  }

  /** Row `line`, between bytes `start` and `end`; rows come in file order. */
  add(line: number, start: number, end: number): void {
    const k = 4 * (this.count - 1);
    const d = this.data;
    if (this.count > 1 && d[k + 1] === start && (d[k + 2] as number) + (d[k + 3] as number) === line) {
      d[k + 1] = end;
      d[k + 3] = (d[k + 3] as number) + 1;
    } else this.push(start, end, line, 1);
  }

  /** Rows 1 to `rows` as one run (they end where the row after them starts). */
  addRun(start: number, end: number, rows: number): void {
    this.push(start, end, 1, rows);
  }

  private push(start: number, end: number, line: number, rows: number): void {
    if (!this.usable) return;
    if (this.count >= MAX_SPANS) {
      this.usable = false;
      this.data = new Float64Array(0);
      return;
    }
    if (4 * (this.count + 1) > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set([start, end, line, rows], 4 * this.count++);
  }

  /** The spans in file order, as [start, end, first line, rows]. */
  *spans(): Generator<[number, number, number, number]> {
    for (let k = 0; k < this.count; k++) {
      const [start, end, line, rows] = this.data.subarray(4 * k, 4 * k + 4);
      yield [start as number, end as number, line as number, rows as number];
    }
  }
}

/** The bytes of the spans, a chunk at a time; `hash` sees every byte of the file. */
export async function* spanChunks(file: string, spans: RowSpans, hash?: Hash): AsyncGenerator<Buffer> {
  const list = [...spans.spans()];
  let k = 0;
  let pos = 0;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>) {
      hash?.update(chunk);
      const from = pos;
      pos += chunk.length;
      const parts: Buffer[] = [];
      for (let span = list[k]; span !== undefined && span[0] < pos; span = list[k]) {
        const s = Math.max(span[0], from);
        const e = Math.min(span[1], pos);
        if (e > s) parts.push(chunk.subarray(s - from, e - from));
        if (span[1] > pos) break;
        k++;
      }
      if (parts.length > 0) yield parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    }
  } catch (err) {
    throw readError(file, err);
  }
}

/** The line of the n-th row the spans hold (n from 0, asked in order). */
export function spanLines(file: string, spans: RowSpans): (n: number) => number {
  const runs = [...spans.spans()].slice(1);
  let k = 0;
  let used = 0;
  return () => {
    let run = runs[k];
    while (run !== undefined && used >= run[3]) {
      run = runs[++k];
      used = 0;
    }
    // More rows than the first pass saw there: the file changed in between.
    if (run === undefined) throw new CatalogueChangedError(file);
    return run[2] + used++;
  };
}
