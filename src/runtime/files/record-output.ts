// The output service: what a job asks for with session.output(); it picks the format, opens the target and hands out a sink.
import { writeChunk } from '../../output/backpressure.js';
import { formatNamed, type OutputFormat } from '../../output/format-registry.js';
import type { FormatModule } from '../../output/output-format.js';
import type { OutputDocument } from '../../output/output-document.js';
import type { Renderer, RenderOptions } from '../../output/render-contract.js';
import type { Context } from '../context.js';
import type { Settings } from '../settings.js';
import type { Terminal } from '../terminal/terminal.js';
import type { OutputTarget } from './file-target.js';
import {
  chooseOutputFormat,
  chooseStatusFormat,
  openTarget,
  outputFile,
  reachesTerminal,
  type TargetOptions,
} from './output-target.js';
import { resolveTargetPath } from './target-path.js';
import { writeOutput, type OnWriteFailure } from './write-output.js';

export type { OutputFormat } from '../../output/format-registry.js';
export type { OutputDocument } from '../../output/output-document.js';

/** What a job says of its rows; the session adds the format, the target, the terminal's width and colour. */
export type RowsSpec = Omit<RenderOptions, 'format' | 'out' | 'width' | 'color' | 'toTerminal'>;

export interface OutputSpec extends TargetOptions {
  /**
   * The format when the shell's plan decided it (a digest or report format, match's): its name. Otherwise the
   * record format is chosen as every command chooses it: --format, the -o extension, the profile, then the
   * terminal's format on a terminal and the pipe's otherwise.
   */
  format?: string;
  /**
   * A status answer rather than records, its format chosen by `chooseStatusFormat` (never the profile's):
   * `file` as doctor, `line` as health.
   */
  status?: 'file' | 'line';
  /**
   * The record formats the command writes (its declaration, src/cli/format-choices.ts); undefined: every one. The
   * profile's format is the default only of a command that writes it.
   */
  writes?: readonly string[];
}

/** What a job writes to while the target is open: rows through a renderer of the run's format, or a whole document. */
export interface RecordSink {
  readonly format: OutputFormat;
  readonly target: OutputTarget;
  /** Whether what is written lands on the user's terminal (then control codes are escaped). */
  readonly toTerminal: boolean;
  /** A renderer of the run's record format on this target, the terminal's width and colour filled in. */
  renderer(rows: RowsSpec): Renderer;
  /** Writes `rows` through a new renderer and finishes it. */
  rows(spec: RowsSpec, rows: readonly Record<string, unknown>[]): Promise<number>;
  /** Writes a document already rendered. */
  text(text: string): Promise<void>;
  /** Writes a document or status answer in the form the run's format takes (output-document.ts). */
  document(doc: OutputDocument): Promise<void>;
}

export interface RecordOutput {
  /** The format chosen before anything was read or sent: a bad -f or -o is refused here. */
  readonly format: OutputFormat;
  /** Whether rows go to a file (-o, not `-`). */
  readonly toFile: boolean;
  /**
   * Opens the target, lets `fill` write to it, then commits it (a file appears whole, or not at all).
   * When anything fails, `failed` decides what stays; by default the file at the path stays as it was.
   */
  write<T>(fill: (sink: RecordSink) => Promise<T>, failed?: OnWriteFailure): Promise<T>;
}

function pick(settings: Settings, terminal: Terminal, spec: OutputSpec): OutputFormat {
  if (spec.format !== undefined) return formatNamed(spec.format);
  if (spec.status) return chooseStatusFormat(settings, terminal, spec.status);
  return chooseOutputFormat(settings, terminal, spec.writes);
}

/**
 * The record output of a run: its format chosen and its -o path checked now (a folder, a missing folder:
 * refused before any request, and before a case step or an archive write), its target opened when written.
 */
export async function recordOutput(
  settings: Settings,
  terminal: Terminal,
  ctx: Context,
  spec: OutputSpec = {},
): Promise<RecordOutput> {
  const format = pick(settings, terminal, spec);
  const file = outputFile(settings);
  if (file !== undefined) await resolveTargetPath(file);
  // The renderer loads only when something is written: a run refused before that never loads it.
  let loaded: FormatModule | undefined;
  const sinkOn = (target: OutputTarget): RecordSink => {
    const toTerminal = reachesTerminal(target, terminal);
    const renderer = (rows: RowsSpec): Renderer => {
      if (!loaded) throw new TypeError(`the ${format.name} format has no record renderer`);
      const opts = { ...rows, format: format.name, out: target.stream, width: terminal.columns, color: terminal.color };
      return loaded.createRenderer({ ...opts, toTerminal });
    };
    const rowsOf = async (rowsSpec: RowsSpec, rows: readonly Record<string, unknown>[]) => {
      const r = renderer(rowsSpec);
      await r.write(rows);
      await r.end();
      return r.count;
    };
    const text = (t: string) => writeChunk(target.stream, t);
    return {
      format,
      target,
      toTerminal,
      renderer,
      rows: rowsOf,
      text,
      async document(doc) {
        const { documentForm } = await import('../../output/output-document.js');
        const form = await documentForm(format, doc);
        if ('text' in form) await text(form.text);
        else await rowsOf(form.rows.spec, form.rows.rows);
      },
    };
  };
  return {
    format,
    toFile: file !== undefined,
    async write(fill, failed) {
      loaded ??= await format.load?.();
      return writeOutput(
        () => openTarget(settings, ctx, spec),
        (target) => fill(sinkOn(target)),
        failed,
      );
    },
  };
}
