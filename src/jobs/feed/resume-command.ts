// Builds the command that finishes an interrupted run: the user's own command line, minus the key, plus where to continue.
import { plainLine } from '../../output/control-escapes.js';
import { shellQuote } from '../../runtime/shell-quote.js';

// --monitor's URL carries the check's token: a secret, so a resumed run is monitored only by the setting.
const DROP_WITH_VALUE = new Set(['--cursor', '--api-key', '--monitor']);
const DROP_ALONE = new Set(['--resume']);

/** A character the printed line would drop or change (plainLine): a control, a line break, bidi, invisible ones. */
const altered = (ch: string) => plainLine(ch) !== ch;

/**
 * `ch` as an ANSI-C escape: `\n`, `\t` and the like by name, any other as its UTF-8 bytes (`\xe2\x80\xae`), which
 * every shell that reads $'…' reads the same in any locale (a `\u` escape needs a UTF-8 one).
 */
function escaped(ch: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\v': '\\v', '\f': '\\f' };
  if (named[ch]) return named[ch];
  return [...Buffer.from(ch, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
}

/**
 * A word of the command, quoted for the shell. One that holds a character the printed line would alter (a file named
 * with a line break) is written in ANSI-C quotes (`$'new\nline.csv'`, as bash, zsh, ksh and busybox read them), with
 * that character escaped: printed as it is, the command would name another file.
 */
function commandWord(word: string): string {
  if (![...word].some(altered)) return shellQuote(word);
  const inner = [...word].map((ch) => (altered(ch) ? escaped(ch) : ch === "'" || ch === '\\' ? `\\${ch}` : ch));
  return `$'${inner.join('')}'`;
}

/**
 * `continueWith` is appended after the user's arguments: `['--cursor=<c>']` for stdout (one word: a cursor may
 * start with `-`), `['--resume']` for a file. The key and the monitor URL are never part of the command, even when
 * typed on the command line.
 */
export function resumeCommand(argv: readonly string[], continueWith: string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (DROP_ALONE.has(arg)) continue;
    if (DROP_WITH_VALUE.has(name)) {
      if (!arg.includes('=')) i++;
      continue;
    }
    kept.push(arg);
  }
  return ['recall-feed', ...kept, ...continueWith].map(commandWord).join(' ');
}
