// Each command declares the formats it writes; -f and the -o extension are checked against them before anything runs.
import path from 'node:path';
import { type CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import {
  FORMAT_EXTENSIONS,
  type FormatKind,
  canonicalFormat,
  extensionsOf,
  formatOfKindExtension,
  isKnownExtension,
} from '../output/format-kinds.js';
import { UsageError } from '../runtime/cli-errors.js';

interface Choices {
  kind: FormatKind;
  formats: readonly string[];
}

/** The commands' declarations, kept off commander's objects (whose types would not carry them). */
const DECLARED = new WeakMap<object, Choices>();

/** A command's name as typed: `cases show`, `feed`. */
function commandPath(cmd: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The help section naming a command's formats; empty for a command that declared none. */
export function formatsHelp(cmd: CommandUnknownOpts, helper: Help): string {
  const choices = DECLARED.get(cmd);
  if (!choices) return '';
  const { kind, formats } = choices;
  const exts = extensionsOf(kind, formats);
  const byExt = exts.length > 0 ? `; without -f, -o picks one by its extension (${exts.join(', ')})` : '';
  const text = helper.boxWrap(`${formats.join(', ')}${byExt}.`, (helper.helpWidth ?? 80) - 2);
  return `\nFormats (-f):\n${text.replace(/^/gm, '  ')}\n`;
}

/**
 * Declares that `cmd` writes `formats` of `kind` (default: all of the kind) and lists them in its help,
 * after its options. Returns `cmd`, for chaining.
 */
export function writesFormats<C extends CommandUnknownOpts>(
  cmd: C,
  kind: FormatKind,
  formats: readonly string[] = Object.keys(FORMAT_EXTENSIONS[kind]),
): C {
  DECLARED.set(cmd, { kind, formats });
  // Part of the help proper, so docs/commands.md (helpInformation) lists the formats too.
  cmd.configureHelp({
    formatHelp: (c, helper) => `${Help.prototype.formatHelp.call(helper, c, helper)}${formatsHelp(c, helper)}`,
  });
  return cmd;
}

/**
 * Refuses, before the command runs (so before any request), an -f the command does not write, and without
 * -f an -o extension of a format it does not write (`report -o x.parquet`). Commands without declared
 * formats are left to themselves.
 */
export function checkFormatChoice(cmd: CommandUnknownOpts): void {
  const choices = DECLARED.get(cmd);
  if (!choices) return;
  const { kind, formats } = choices;
  // The global -f and -o, whatever command declared them (commander types a leaf's globals loosely).
  const globals: Record<string, unknown> = cmd.optsWithGlobals();
  const { format, output } = globals;
  if (typeof format === 'string') {
    if (!formats.includes(canonicalFormat(kind, format)))
      // Worded as every flag's bad choice; the list is this command's own.
      throw new UsageError(`--format must be one of ${formats.join(', ')}, not '${format}'`);
    return;
  }
  if (typeof output !== 'string' || output === '-') return;
  const ext = path.extname(output).toLowerCase();
  if (!isKnownExtension(ext) || formatOfKindExtension(kind, formats, ext) !== undefined) return;
  const exts = extensionsOf(kind, formats);
  throw new UsageError(
    `${commandPath(cmd)} does not write ${ext} files (-o ${output})`,
    exts.length > 0
      ? `it writes ${formats.join(', ')} (-o ${exts.join(', ')}); or say the format with -f to write it under that name`
      : `it writes ${formats.join(', ')}: say which with -f`,
  );
}
