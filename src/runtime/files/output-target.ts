// Picks the output format and target for a command, so feed and sources decide them the same way.
import path from 'node:path';
import { allFormats, defaultFormat, formatNamed, type OutputFormat } from '../../output/format-registry.js';
import { ANY_TEXT, COMPRESSED, FOREIGN, STATUS_FORMATS } from '../../output/format-kinds.js';
import { plainLine } from '../../output/control-escapes.js';
import { formatOfExtension, FORMATS } from '../../output/formats.js';
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

/** Whether records are never written under `ext`: a foreign format's, or a document format's (`.html`, `.md`). */
function otherFormat(ext: string): boolean {
  if (ext === ANY_TEXT || formatOfExtension(ext)) return false;
  return FOREIGN.includes(ext) || allFormats().some((f) => f.kind !== 'records' && f.extensions.includes(ext));
}

/** `a, b or c`. */
function listed(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

/**
 * Refuses an -o name whose extension promises a format no record is written in (.gz, .tsv); the hint names the
 * formats `writes` (the command's own, default every record format) that a file name can pick.
 */
function refuseUnwritten(output: string, writes: readonly string[] = FORMATS): void {
  const ext = path.extname(output).toLowerCase();
  const compressed = COMPRESSED.has(ext);
  if (!compressed && !otherFormat(ext)) return;
  const pipe = writes.includes(defaultFormat('pipe').name) ? defaultFormat('pipe').name : writes[0];
  // The formats a file name can pick, alphabetically, as a reader scans them.
  const byName = writes.filter((f) => formatNamed(f).extensions.length > 0).sort();
  const example = formatNamed(byName[0] ?? pipe ?? '').extensions[0] ?? '';
  throw new UsageError(
    `recall-feed does not write ${ext} files (-o ${output})`,
    compressed
      ? `pipe it to the compressor instead (… -f ${pipe} | gzip > ${path.basename(output)}), or say the format with -f to write it uncompressed under that name`
      : `write ${listed(byName)} (e.g. -o ${output.slice(0, -ext.length)}${example}), or say the format with -f to write it under that name anyway`,
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
  return chooseOutputFormat(settings, terminal).name;
}

/**
 * The format `chooseFormat` names, as the registry's object. `writes`: the formats the command writes (its
 * declaration; undefined: every record format), of which the profile's must be one to apply.
 */
export function chooseOutputFormat(settings: Settings, terminal: Terminal, writes?: readonly string[]): OutputFormat {
  const output = outputFile(settings);
  const format = settings.format ? formatNamed(settings.format) : pickFormat(settings, output, terminal, writes);
  // A binary format is written into a file only: never a terminal, and not a pipe either (-o - too).
  if (format.needsFile && !output) {
    throw new UsageError(
      `-f ${format.name} writes a file: add -o <file>`,
      `e.g. -o recalls${format.extensions[0] ?? ''}`,
    );
  }
  return format;
}

/**
 * The profile's format, where it can apply: a default for the commands that write it, never a refusal. So not for
 * a command that does not write it (`cases verify` with csv), nor a file-only format (parquet) without -o.
 */
function profileFormat(settings: Settings, output: string | undefined, writes: readonly string[] | undefined) {
  if (!settings.profileFormat || (writes && !writes.includes(settings.profileFormat))) return undefined;
  const format = formatNamed(settings.profileFormat);
  return format.needsFile && !output ? undefined : format;
}

function pickFormat(
  settings: Settings,
  output: string | undefined,
  terminal: Terminal,
  writes: readonly string[] | undefined,
): OutputFormat {
  if (output) refuseUnwritten(output);
  const byExtension = formatOfPath(output);
  if (byExtension) return formatNamed(byExtension);
  return (
    profileFormat(settings, output, writes) ?? defaultFormat(terminal.stdoutIsTTY && !output ? 'terminal' : 'pipe')
  );
}

/**
 * How a status answer (doctor's checks, health's line) is written: -f, else the -o extension, else for `file`
 * (doctor) the format for people on a terminal and the pipe's otherwise, for `line` (health) the format for people
 * wherever it goes (a status line, JSON only when asked for). Never the profile's format: it is the record
 * commands' default, and may be one the answer has no form in. -f and -o were checked against the command's formats
 * before it ran; without -f, an -o extension of a format not written (.gz, .tsv) is refused here, as pickFormat does.
 */
export function chooseStatusFormat(settings: Settings, terminal: Terminal, choice: 'file' | 'line'): OutputFormat {
  const asked = askedFormat(settings);
  if (asked) return asked;
  // Without -f, a name that promises a format the answer is not in (.gz, .tsv) is refused as a record command's is,
  // the hint naming the formats a status answer is written in.
  const output = outputFile(settings);
  if (output) refuseUnwritten(output, STATUS_FORMATS);
  const forPeople = choice === 'line' || (terminal.stdoutIsTTY && !outputFile(settings));
  return defaultFormat(forPeople ? 'terminal' : 'pipe');
}

/** The format -f or else the -o extension asks for; undefined when neither does (sync then prints no summary). */
export function askedFormat(settings: Settings): OutputFormat | undefined {
  const name = settings.format ?? formatOfPath(outputFile(settings));
  return name === undefined ? undefined : formatNamed(name);
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
  if (where.kind === 'direct') return directTarget(where.path, { resume, signal: ctx.signal });
  return fileTarget(where, output, {
    append: opts.append ?? false,
    resume,
    fingerprint: opts.fingerprint ?? '',
    // What a replace could not keep of the file (its group): said on stderr, a name being text the user chose.
    warn: (line) => ctx.stderr.write(`warning: ${plainLine(line)}\n`),
  });
}
