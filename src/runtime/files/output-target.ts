// Picks the output format and target for a command, so feed and sources decide them the same way.
import path from 'node:path';
import { formatOfExtension, formatSpec } from '../../output/formats.js';
import { UsageError } from '../cli-errors.js';
import type { Context } from '../context.js';
import type { Format, Settings } from '../settings.js';
import type { Terminal } from '../terminal/terminal.js';
import { directTarget } from './direct-target.js';
import { fileTarget, stdoutTarget, type OutputTarget } from './file-target.js';
import { resolveTargetPath } from './target-path.js';

/** The format a file name asks for by its extension (the registry's: `.csv`, `.jsonl`, `.parquet`...); undefined for none. */
export function formatOfPath(file: string | undefined): Format | undefined {
  return file ? formatOfExtension(path.extname(file)) : undefined;
}

/**
 * Extensions of formats this tool does not write: `-o x.json.gz` or `-o x.tsv` would get plain jsonl
 * under a name that promises something else. Other names (none, .txt, .out) take the usual format.
 */
const COMPRESSED = new Set(['.gz', '.bz2', '.xz', '.zst', '.zip', '.7z', '.br', '.lz4', '.tgz']);
const OTHER_FORMATS = new Set(['.tsv', '.tab', '.xlsx', '.xls', '.ods', '.xml', '.yaml', '.yml', '.html']);

function refuseUnwritten(output: string): void {
  const ext = path.extname(output).toLowerCase();
  const compressed = COMPRESSED.has(ext);
  if (!compressed && !OTHER_FORMATS.has(ext)) return;
  throw new UsageError(
    `recall-feed does not write ${ext} files (-o ${output})`,
    compressed
      ? `pipe it to the compressor instead (recall-feed feed -f jsonl | gzip > ${path.basename(output)}), or say the format with -f to write it uncompressed under that name`
      : 'write csv, json, jsonl or parquet (e.g. -o recalls.csv), or say the format with -f to write it under that name anyway',
  );
}

/** `-o -` is stdout, as in most tools. */
export const outputFile = (settings: Pick<Settings, 'output'>) =>
  settings.output === '-' ? undefined : settings.output;

/**
 * --format, else the -o file's extension, else the profile's format, else table on a terminal and jsonl
 * in a pipe. Without --format, an extension of a format not written (.gz, .tsv) is a usage error.
 */
export function chooseFormat(settings: Settings, terminal: Terminal): Format {
  const output = outputFile(settings);
  const format = settings.format ?? pickFormat(settings, output, terminal);
  // A binary format is written into a file only: never a terminal, and not a pipe either (-o - too).
  if (formatSpec(format).needsFile && !output) {
    throw new UsageError(
      `-f ${format} writes a file: add -o <file>`,
      `e.g. -o recalls${formatSpec(format).extensions[0] ?? ''}`,
    );
  }
  return format;
}

function pickFormat(settings: Settings, output: string | undefined, terminal: Terminal): Format {
  if (output) refuseUnwritten(output);
  const byExtension = formatOfPath(output);
  if (byExtension) return byExtension;
  if (settings.profileFormat) return settings.profileFormat;
  return terminal.stdoutIsTTY && !output ? 'table' : 'jsonl';
}

/** Whether what goes to `target` lands on the user's terminal (stdout, and stdout is one): escape controls then. */
export function reachesTerminal(target: OutputTarget, terminal: Terminal): boolean {
  return target.kind === 'stdout' && terminal.stdoutIsTTY;
}

export interface TargetOptions {
  append?: boolean;
  resume?: boolean;
  fingerprint?: string;
}

/**
 * Checks the -o path before any request is sent (a folder or a missing folder is a usage error) and
 * opens it: stdout, a device or pipe written through, or a regular file written through `.partial`.
 */
export async function openTarget(settings: Settings, ctx: Context, opts: TargetOptions = {}): Promise<OutputTarget> {
  const output = outputFile(settings);
  if (!output) return stdoutTarget(ctx.stdout);
  const where = await resolveTargetPath(output);
  const resume = opts.resume ?? false;
  if (where.kind === 'stdout') return stdoutTarget(ctx.stdout);
  if (where.kind === 'direct') return directTarget(where.path, { resume });
  return fileTarget(where, output, { append: opts.append ?? false, resume, fingerprint: opts.fingerprint ?? '' });
}
