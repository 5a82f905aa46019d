// Builds the command that finishes an interrupted run: the user's own command line, minus the key, plus where to continue.
import { shellQuote } from '../../runtime/shell-quote.js';

// --monitor's URL carries the check's token: a secret, so a resumed run is monitored only by the setting.
const DROP_WITH_VALUE = new Set(['--cursor', '--api-key', '--monitor']);
const DROP_ALONE = new Set(['--resume']);

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
  return ['recall-feed', ...kept, ...continueWith].map(shellQuote).join(' ');
}
