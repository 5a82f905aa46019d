// Lookup functions that the bash and zsh scripts share: subcommands, flags, flag values and arguments per command path.
import { shellQuote } from '../../runtime/shell-quote.js';
import { allCommands, flagsInScope, type CommandSpec, type FlagValue } from './tree.js';

/** A line of output; printf, because echo would swallow a word such as -n or -e. */
const say = (text: string): string => `printf '%s\\n' ${shellQuote(text)}`;

/** The path as the scripts key it: command names joined by spaces, '' for the program. */
export const pathKey = (path: readonly string[]): string => path.join(' ');

/** How a script is told what follows a flag: switch, file, free, or `one-of <values>`. */
export function valueWord(value: FlagValue): string {
  return value.kind === 'oneOf' ? `one-of ${value.values.join(' ')}` : value.kind === 'none' ? 'switch' : value.kind;
}

/** `PATH|FLAG` for this command, and for its subcommands too: a command's flags hold below it. */
function flagPattern(c: CommandSpec, flag: string): string {
  const key = pathKey(c.path);
  if (key === '') return `*${shellQuote(`|${flag}`)}`;
  const own = shellQuote(`${key}|${flag}`);
  return c.commands.length === 0 ? own : `${own}|${shellQuote(`${key} `)}*${shellQuote(`|${flag}`)}`;
}

function caseFunction(name: string, subject: string, arms: [pattern: string, body: string][]): string {
  const lines = arms.map(([pattern, body]) => `    ${pattern}) ${body} ;;`);
  return [`${name}() {`, `  case ${subject} in`, ...lines, '  esac', '}'].join('\n');
}

/** The lookup functions, each named `<fn>_<what>`. */
export function lookupFunctions(root: CommandSpec, fn: string): string {
  const commands = allCommands(root);
  // `<fn>_sub PATH WORD`: the path WORD leads to, when it is a subcommand (or an alias of one) of PATH.
  const sub = caseFunction(
    `${fn}_sub`,
    '"$1|$2"',
    commands.flatMap((c) =>
      c.commands.flatMap((s) =>
        [s.name, ...s.aliases].map((word): [string, string] => [
          shellQuote(`${pathKey(c.path)}|${word}`),
          say(pathKey(s.path)),
        ]),
      ),
    ),
  );
  // `<fn>_subs PATH`: the subcommands to offer.
  const subs = caseFunction(
    `${fn}_subs`,
    '"$1"',
    commands
      .filter((c) => c.commands.length > 0)
      .map((c) => [shellQuote(pathKey(c.path)), say(c.commands.map((s) => s.name).join(' '))]),
  );
  // `<fn>_flags PATH`: every flag usable there, the command's own and its ancestors'.
  const flags = caseFunction(
    `${fn}_flags`,
    '"$1"',
    commands.map((c) => [
      shellQuote(pathKey(c.path)),
      say(
        flagsInScope(root, c.path)
          .flatMap((f) => f.names)
          .join(' '),
      ),
    ]),
  );
  // `<fn>_flag PATH FLAG`: what follows FLAG there. Deeper commands come first, so their own flags win.
  const deepestFirst = [...commands].sort((a, b) => b.path.length - a.path.length);
  const flag = caseFunction(
    `${fn}_flag`,
    '"$1|$2"',
    deepestFirst.flatMap((c) =>
      c.flags.flatMap((f) => f.names.map((n): [string, string] => [flagPattern(c, n), say(valueWord(f.value))])),
    ),
  );
  // `<fn>_arg PATH INDEX`: the values of the INDEX-th argument (from 0), when they form a closed list.
  const arg = caseFunction(
    `${fn}_arg`,
    '"$1|$2"',
    commands.flatMap((c) =>
      c.args.flatMap((a, i): [string, string][] =>
        a.values ? [[shellQuote(`${pathKey(c.path)}|${i}`), say(a.values.join(' '))]] : [],
      ),
    ),
  );
  return [sub, subs, flags, flag, arg].join('\n\n');
}
