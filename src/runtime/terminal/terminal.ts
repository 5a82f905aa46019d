// Decides once what the streams are: terminal or pipe, width, colour level (NO_COLOR, FORCE_COLOR, --no-color), animation.
import type { ColorLevel } from '../../output/render-contract.js';
import type { Context } from '../context.js';

type Env = Record<string, string | undefined>;

export interface Terminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Width to fit tables to. */
  columns: number;
  /** chalk's colour level on stdout (tables); 0 is none. The one place that decides it. */
  color: ColorLevel;
  /** A spinner and in-place countdowns on stderr; otherwise plain lines. */
  animate: boolean;
}

/**
 * Animation rewrites the current stderr line, so it needs:
 * - stderr a real terminal (RECALL_FEED_FORCE_TTY does not count: tests would capture the frames)
 *   that reports its width: ora loops forever writing clear-line codes on a pty of 0 columns;
 * - stdout a terminal too: when stdout is piped to a program that prints to the same terminal
 *   (`recall-feed feed | less`, `| jq`), spinner frames glue themselves onto its lines (gh's rule);
 * - a terminal that understands cursor control: not TERM=dumb (Emacs shell, some CI consoles);
 * - no CI variable: CI logs keep every frame.
 */
function canAnimate(ctx: Context, stdoutIsTTY: boolean): boolean {
  return (
    ctx.stderr.isTTY === true &&
    (ctx.stderr.columns ?? 0) > 0 &&
    stdoutIsTTY &&
    ctx.env.TERM !== 'dumb' &&
    ctx.env.CI === undefined
  );
}

/**
 * The colour level, in this order: --no-color and NO_COLOR (no-color.org: any non-empty value) turn it
 * off; FORCE_COLOR forces it on (0 or false off; 2 and 3 ask for 256 colours and truecolor), even into a
 * pipe; TERM=dumb turns it off; otherwise a terminal gets colour, as many as COLORTERM and TERM say.
 * chalk would read argv and its own environment rules (blind to NO_COLOR): it gets this level instead.
 */
export function colorLevel(env: Env, colorFlag: boolean | undefined, isTTY: boolean): ColorLevel {
  if (colorFlag === false || (env.NO_COLOR ?? '') !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    return force === '2' ? 2 : force === '3' ? 3 : 1;
  }
  if (env.TERM === 'dumb' || !isTTY) return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return /256(col)?/.test(env.TERM ?? '') ? 2 : 1;
}

/**
 * RECALL_FEED_FORCE_TTY=1 makes both streams count as terminals (tests, `script`-less demos);
 * COLUMNS sets the width when the stream does not report one.
 */
export function detectTerminal(ctx: Context, colorFlag: boolean | undefined): Terminal {
  const env = ctx.env;
  const forced = env.RECALL_FEED_FORCE_TTY === '1';
  const stdoutIsTTY = forced || ctx.stdout.isTTY === true;
  const stderrIsTTY = forced || ctx.stderr.isTTY === true;
  const envColumns = Number(env.COLUMNS);
  const columns =
    ctx.stdout.columns && ctx.stdout.columns > 0
      ? ctx.stdout.columns
      : Number.isInteger(envColumns) && envColumns > 0
        ? envColumns
        : stdoutIsTTY
          ? 80
          : 120;
  return {
    stdoutIsTTY,
    stderrIsTTY,
    columns,
    color: colorLevel(env, colorFlag, stdoutIsTTY),
    animate: canAnimate(ctx, stdoutIsTTY),
  };
}
