// The feed's defaults, apart from the plan so that the command's help can name them without loading the engine.
import { BOUNDS } from '../../api/constants.js';

/** The largest page the API allows: the fewest requests for a window. */
export const DEFAULT_PAGE_SIZE = BOUNDS.pageSizeMax;
/** Seconds between polls of `--watch`. */
export const DEFAULT_INTERVAL_S = 60;
/** `--watch` looks back one hour unless `--hours` says otherwise: each poll needs only what is new. */
export const DEFAULT_WATCH_HOURS = 1;
/**
 * Without `--hours`, `--watch` asks for the whole 24 hours on its first poll and then at least this often (seconds), so
 * that a recall that reaches the API more than an hour after its published_at is still written, within this long.
 */
export const DEFAULT_SWEEP_S = 3600;
/** `--hours` in the help of `feed` and `match`, which both watch. */
export const HOURS_HELP = `look-back window in hours (default 24; with --watch ${DEFAULT_WATCH_HOURS}, and all ${BOUNDS.hoursMax} on the first poll and every ${DEFAULT_SWEEP_S / 60} min)`;
/** Seconds an --exec command may run for one recall before it is stopped and counted as failed. */
export const DEFAULT_EXEC_TIMEOUT_S = 30;
export { DEFAULT_LOCK_WAIT_S } from '../../runtime/files/lock-wait.js';
