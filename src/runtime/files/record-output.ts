// The output service: what a job asks for with session.output(); it picks the format, opens the target and hands out a sink.
import { writeChunk } from '../../output/backpressure.js';
import { isFormat } from '../../output/formats.js';
import type { Renderer, RenderOptions } from '../../output/render-contract.js';
import type { Context } from '../context.js';
import type { Format, Settings } from '../settings.js';
import type { Terminal } from '../terminal/terminal.js';
import type { OutputTarget } from './file-target.js';
import { chooseFormat, openTarget, outputFile, reachesTerminal, type TargetOptions } from './output-target.js';
import { resolveTargetPath } from './target-path.js';
import { writeOutput, type OnWriteFailure } from './write-output.js';

/** What a job says of its rows; the session adds the format, the target, the terminal's width and colour. */
export type RowsSpec = Omit<RenderOptions, 'format' | 'out' | 'width' | 'color' | 'toTerminal'>;

export interface OutputSpec<F extends string = Format> extends TargetOptions {
  /**
   * The format when the job decides it (a digest or report format, a status line); otherwise the record
   * format is chosen as every command chooses it: --format, the -o extension, the profile, then table on a
   * terminal and jsonl in a pipe.
   */
  format?: F;
}

/** What a job writes to while the target is open: rows through a renderer of the run's format, or a whole document. */
export interface RecordSink<F extends string = Format> {
  readonly format: F;
  readonly target: OutputTarget;
  /** Whether what is written lands on the user's terminal (then control codes are escaped). */
  readonly toTerminal: boolean;
  /** A renderer of the run's record format on this target, the terminal's width and colour filled in. */
  renderer(rows: RowsSpec): Renderer;
  /** Writes `rows` through a new renderer and finishes it. */
  rows(spec: RowsSpec, rows: readonly Record<string, unknown>[]): Promise<number>;
  /** Writes a document already rendered (a digest, a report, a status line). */
  text(text: string): Promise<void>;
}

export interface RecordOutput<F extends string = Format> {
  /** The format chosen before anything was read or sent: a bad -f or -o is refused here. */
  readonly format: F;
  /** Whether rows go to a file (-o, not `-`). */
  readonly toFile: boolean;
  /**
   * Opens the target, lets `fill` write to it, then commits it (a file appears whole, or not at all).
   * When anything fails, `failed` decides what stays; by default the file at the path stays as it was.
   */
  write<T>(fill: (sink: RecordSink<F>) => Promise<T>, failed?: OnWriteFailure): Promise<T>;
}

/**
 * The record output of a run: its format chosen and its -o path checked now (a folder, a missing folder:
 * refused before any request, and before a case step or an archive write), its target opened when written.
 */
export async function recordOutput<F extends string = Format>(
  settings: Settings,
  terminal: Terminal,
  ctx: Context,
  spec: OutputSpec<F> = {},
): Promise<RecordOutput<F>> {
  const format = spec.format ?? (chooseFormat(settings, terminal) as F);
  const file = outputFile(settings);
  if (file !== undefined) await resolveTargetPath(file);
  const sinkOn = (target: OutputTarget): RecordSink<F> => {
    const toTerminal = reachesTerminal(target, terminal);
    const renderer = (rows: RowsSpec): Renderer => {
      if (!isFormat(format)) throw new TypeError(`${format} is not a record format`);
      return rendererFactory()({
        ...rows,
        format,
        out: target.stream,
        width: terminal.columns,
        color: terminal.color,
        toTerminal,
      });
    };
    return {
      format,
      target,
      toTerminal,
      renderer,
      async rows(rowsSpec, rows) {
        const r = renderer(rowsSpec);
        await r.write(rows);
        await r.end();
        return r.count;
      },
      text: (text) => writeChunk(target.stream, text),
    };
  };
  return {
    format,
    toFile: file !== undefined,
    async write(fill, failed) {
      await loadRenderers();
      return writeOutput(
        () => openTarget(settings, ctx, spec),
        (target) => fill(sinkOn(target)),
        failed,
      );
    },
  };
}

// The renderers load only when something is written: a run refused before that never loads them.
let createRenderer: ((opts: RenderOptions) => Renderer) | undefined;
async function loadRenderers(): Promise<void> {
  createRenderer ??= (await import('../../output/renderer.js')).createRenderer;
}
function rendererFactory(): (opts: RenderOptions) => Renderer {
  if (!createRenderer) throw new Error('renderers not loaded');
  return createRenderer;
}
