// Each command declares the formats it writes; -f and the -o extension are checked against them before anything runs.
import path from 'node:path';
import { type CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import {
  extensionsOf,
  formatOfKindExtension,
  formatsOf,
  isKnownExtension,
  kindFormat,
  neverWritten,
  type OutputKind,
} from '../output/format-kinds.js';
import { UsageError } from '../runtime/cli-errors.js';

export interface Choices {
  kind: OutputKind;
  /** The formats' names; undefined: every format of the kind, as registered when asked. */
  formats: readonly string[] | undefined;
}

/** The commands' declarations, kept off commander's objects (whose types would not carry them). */
const DECLARED = new WeakMap<object, Choices>();

/** The formats a declaration names: its own list, or every format of its kind registered now. */
function formatsOfChoices(choices: Choices): readonly string[] {
  return choices.formats ?? formatsOf(choices.kind);
}

/** The formats `cmd` declared it writes (their kind and names); undefined for a command that declared none. */
/** The program a command belongs to (its topmost parent). */
export function rootOf(cmd: CommandUnknownOpts): CommandUnknownOpts {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

export function declaredFormats(cmd: CommandUnknownOpts): { kind: OutputKind; formats: readonly string[] } | undefined {
  const choices = DECLARED.get(cmd);
  return choices && { kind: choices.kind, formats: formatsOfChoices(choices) };
}

/**
 * Every command under `root` (itself included) that declared formats, with its name as typed and the formats
 * (those of a command that declared none by name are every format of its kind registered now): what the tests
 * iterate over rather than a list of their own.
 */
export function formatCommands(
  root: CommandUnknownOpts,
): { path: string; kind: OutputKind; formats: readonly string[] }[] {
  const found = declaredFormats(root);
  const here = found ? [{ path: commandPath(root), ...found }] : [];
  return [...here, ...root.commands.flatMap((c) => formatCommands(c as CommandUnknownOpts))];
}

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
  const formats = formatsOfChoices(choices);
  const exts = extensionsOf(formats);
  const byExt = exts.length > 0 ? `; without -f, -o picks one by its extension (${exts.join(', ')})` : '';
  const text = helper.boxWrap(`${formats.join(', ')}${byExt}.`, (helper.helpWidth ?? 80) - 2);
  return `\nFormats (-f):\n${text.replace(/^/gm, '  ')}\n`;
}

/**
 * Declares that `cmd` writes `formats` of `kind` (default: all of the kind) and lists them in its help,
 * after its options. Returns `cmd`, for chaining.
 */
export function writesFormats<C extends CommandUnknownOpts>(cmd: C, kind: OutputKind, formats?: readonly string[]): C {
  DECLARED.set(cmd, { kind, formats });
  // Part of the help proper, so docs/commands.md (helpInformation) lists the formats too.
  cmd.configureHelp({
    formatHelp: (c, helper) => `${Help.prototype.formatHelp.call(helper, c, helper)}${formatsHelp(c, helper)}`,
  });
  return cmd;
}

/**
 * Whether `cmd` takes the program's -f and -o: a command that declared the formats it writes does; one that writes
 * no file format (schema, completion, config, sandbox, mcp: each prints to stdout itself) does not. The program itself
 * takes them (they may come before the command's name). Completion offers them where this says so.
 */
export function takesOutputFlags(cmd: CommandUnknownOpts): boolean {
  return cmd.parent === null || DECLARED.has(cmd);
}

/** A command that writes no file format given -f, or -o other than `-` (stdout, where it writes anyway). */
function refuseOutputFlags(cmd: CommandUnknownOpts, format: unknown, output: unknown): void {
  const flag = typeof format === 'string' ? '-f' : typeof output === 'string' && output !== '-' ? '-o' : undefined;
  if (flag === undefined) return;
  throw new UsageError(
    `${commandPath(cmd)} takes no ${flag}: it writes no file format, only to stdout`,
    `to keep what it prints, redirect it: recall-feed ${commandPath(cmd)} … > file`,
  );
}

/**
 * Refuses, before the command runs (so before any request), an -f the command does not write, and without
 * -f an -o extension of a format it does not write (`report -o x.parquet`). A command that declared no
 * formats refuses -f and -o alike.
 */
export function checkFormatChoice(cmd: CommandUnknownOpts): void {
  // The global -f and -o, whatever command declared them (commander types a leaf's globals loosely).
  const globals: Record<string, unknown> = cmd.optsWithGlobals();
  const { format, output } = globals;
  const choices = DECLARED.get(cmd);
  if (!choices) {
    refuseOutputFlags(cmd, format, output);
    return;
  }
  const { kind } = choices;
  const formats = formatsOfChoices(choices);
  if (typeof format === 'string') {
    if (kindFormat(kind, formats, format) === undefined)
      // Worded as every flag's bad choice; the list is this command's own.
      throw new UsageError(`--format must be one of ${formats.join(', ')}, not '${format}'`);
    return;
  }
  if (typeof output !== 'string' || output === '-') return;
  const ext = path.extname(output).toLowerCase();
  // A record command's .gz or .tsv is refused where its output opens, with the compressor's hint (output-target.ts).
  const foreign = kind !== 'record' && neverWritten(ext);
  if (!(isKnownExtension(ext) || foreign) || formatOfKindExtension(kind, formats, ext) !== undefined) return;
  const exts = extensionsOf(formats);
  throw new UsageError(
    `${commandPath(cmd)} does not write ${ext} files (-o ${output})`,
    exts.length > 0
      ? `it writes ${formats.join(', ')} (-o ${exts.join(', ')}); or say the format with -f to write it under that name`
      : `it writes ${formats.join(', ')}: say which with -f`,
  );
}
