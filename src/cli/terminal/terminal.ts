// Decides once what the streams are: terminal or pipe, width, colour (NO_COLOR, FORCE_COLOR, --no-color), animation.
import type { Context } from '../context.js';

export interface Terminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Width to fit tables to. */
  columns: number;
  /** Colour on stdout (tables). */
  color: boolean;
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
  const wants = (isTTY: boolean): boolean => {
    if (colorFlag === false || (env.NO_COLOR ?? '') !== '') return false;
    if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
    if (env.TERM === 'dumb') return false;
    return isTTY;
  };
  return {
    stdoutIsTTY,
    stderrIsTTY,
    columns,
    color: wants(stdoutIsTTY),
    animate: canAnimate(ctx, stdoutIsTTY),
  };
}
