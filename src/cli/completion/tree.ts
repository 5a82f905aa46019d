// Reads the live commander tree into what a completion script needs: commands, flags, and what follows each flag.
import type { Argument, CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { SORT_FIELDS, SORT_ORDERS } from '../../api/constants.js';
import { FORMATS } from '../../output/formats.js';
import { CONFIG_KEY_INFO } from '../../runtime/config/config-keys.js';
import { declaredFormats, rootOf, takesOutputFlags } from '../format-choices.js';
import { HELP_TOPICS } from '../help-topics.js';
import { refusedParentOptions } from '../parent-options.js';

/** What a flag takes: nothing (a switch), a file name, a value from a closed list, or any value. */
export type FlagValue =
  | { kind: 'none' }
  | { kind: 'file' }
  | { kind: 'free' }
  | { kind: 'oneOf'; values: readonly string[] };

export interface FlagSpec {
  /** Short and long spellings, e.g. ['-f', '--format']. */
  names: string[];
  value: FlagValue;
  description: string;
}

export interface ArgSpec {
  name: string;
  /** The closed list of values, when there is one. */
  values: readonly string[] | undefined;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  /** Command names from the program down to this one; [] for the program itself. */
  path: string[];
  description: string;
  /** This command's own flags; its ancestors' flags apply too (see flagsInScope), but for those it refuses. */
  flags: FlagSpec[];
  /** Spellings of its ancestors' flags this command refuses (-f and -o where it writes no format; `cases show`'s). */
  refuses: string[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

// The commands declare these values in their checks rather than with commander's .choices(), so that
// their error messages stay their own; options that do use .choices() need no entry here.
const CLOSED_FLAG_VALUES: Record<string, readonly string[]> = {
  '--format': FORMATS,
  '--sort': SORT_FIELDS,
  '--order': SORT_ORDERS,
};
/** Arguments by name: `config set/get/unset <key>`. */
const CLOSED_ARG_VALUES: Record<string, readonly string[]> = {
  key: Object.keys(CONFIG_KEY_INFO),
};
/** `<file>`, `[file...]`, and a file named more closely: `<file|url>`, `<file-or-url>`, `<file.prom>`. */
const FILE_PLACEHOLDER = /[<[]file([.|-][^\]>]*)?[\]>]/;

/** The values a flag is limited to: commander's choices when declared, else the known lists above. */
export function closedValues(option: Option): readonly string[] | undefined {
  return option.argChoices ?? (option.long ? CLOSED_FLAG_VALUES[option.long] : undefined);
}

export function flagValue(option: Option): FlagValue {
  if (!option.required && !option.optional) return { kind: 'none' };
  const values = closedValues(option);
  if (values) return { kind: 'oneOf', values };
  if (FILE_PLACEHOLDER.test(option.flags)) return { kind: 'file' };
  return { kind: 'free' };
}

/**
 * The closed values of arguments that only a job knows (`schema`'s contracts), loaded by the completion command:
 * by the command's path and the argument's name, `schema name`.
 */
export type KnownArgs = Readonly<Record<string, readonly string[]>>;

function argValues(
  arg: Argument,
  cmd: Command,
  siblings: readonly string[],
  known: KnownArgs,
  path: readonly string[],
): readonly string[] | undefined {
  // commander's implicit `help [command]` takes the name of a sibling command; the program's, a help topic too.
  if (cmd.name() === 'help' && arg.name() === 'command')
    return path.length === 1 ? [...siblings, ...Object.keys(HELP_TOPICS)] : siblings;
  return arg.argChoices ?? known[[...path, arg.name()].join(' ')] ?? CLOSED_ARG_VALUES[arg.name()];
}

/**
 * -f is the program's flag, but what it takes is each command's own (format-choices.ts): a command that declared
 * its formats gets -f of its own, with them, which shadows the program's (flagsInScope).
 */
function ownFormatFlag(cmd: Command, options: readonly Option[]): FlagSpec[] {
  const formats = declaredFormats(cmd)?.formats;
  if (!formats || options.some((o) => o.long === '--format')) return [];
  const global = rootOf(cmd).options.find((o) => o.long === '--format');
  if (!global) return [];
  const names = [global.short, global.long].filter((n): n is string => n !== undefined);
  return [{ names, value: { kind: 'oneOf', values: formats }, description: `the format: ${formats.join(', ')}` }];
}

/** Every spelling of the ancestors' options `cmd` refuses: the program's -f and -o, a parent's options it does not take. */
function refusedFlags(cmd: Command): string[] {
  const longs = [...(takesOutputFlags(cmd) ? [] : ['--format', '--output']), ...refusedParentOptions(cmd)];
  const inherited: Option[] = [];
  for (let c = cmd.parent; c; c = c.parent) inherited.push(...c.options);
  return inherited
    .filter((o) => o.long !== undefined && longs.includes(o.long))
    .flatMap((o) => [o.short, o.long].filter((n): n is string => n !== undefined));
}

/**
 * The visible tree under `cmd` (hidden commands and options left out, commander's help ones put in); `known`: the
 * values of arguments the tree cannot say (KnownArgs).
 */
export function describeTree(cmd: Command, known: KnownArgs = {}): CommandSpec {
  return describeCommand(cmd, [], [], known);
}

function describeCommand(cmd: Command, path: string[], siblings: readonly string[], known: KnownArgs): CommandSpec {
  const help = cmd.createHelp();
  const subs = help.visibleCommands(cmd);
  const subNames = subs.map((s) => s.name()).filter((n) => n !== 'help');
  const options = help.visibleOptions(cmd);
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    path,
    description: cmd.description(),
    flags: [
      ...options.map((o) => ({
        names: [o.short, o.long].filter((n): n is string => n !== undefined),
        value: flagValue(o),
        description: o.description,
      })),
      ...ownFormatFlag(cmd, options),
    ],
    refuses: refusedFlags(cmd),
    args: cmd.registeredArguments.map((a) => ({ name: a.name(), values: argValues(a, cmd, siblings, known, path) })),
    commands: subs.map((s) => describeCommand(s, [...path, s.name()], subNames, known)),
  };
}

/** Every command of the tree, the program first. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.commands.flatMap(allCommands)];
}

/**
 * The flags usable at `path`: its own, then its ancestors' (commander reads program flags after a command too), but
 * for those the command refuses.
 */
export function flagsInScope(root: CommandSpec, path: readonly string[]): FlagSpec[] {
  const chain: CommandSpec[] = [root];
  for (const name of path) {
    const next = chain[chain.length - 1]?.commands.find((c) => c.name === name);
    if (!next) break;
    chain.push(next);
  }
  const here = chain[chain.length - 1] as CommandSpec;
  const flags: FlagSpec[] = [];
  const seen = new Set<string>(here.refuses);
  for (const c of chain.reverse()) {
    for (const f of c.flags) {
      if (f.names.some((n) => seen.has(n))) continue;
      for (const n of f.names) seen.add(n);
      flags.push(f);
    }
  }
  return flags;
}
