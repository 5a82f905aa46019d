// The feed's defaults, apart from the plan so that the command's help can name them without loading the engine.
import { BOUNDS } from '../../api/constants.js';

/** The largest page the API allows: the fewest requests for a window. */
export const DEFAULT_PAGE_SIZE = BOUNDS.pageSizeMax;
/** Seconds between polls of `--watch`. */
export const DEFAULT_INTERVAL_S = 60;
/** `--watch` looks back one hour unless `--hours` says otherwise: each poll needs only what is new. */
export const DEFAULT_WATCH_HOURS = 1;
/** Seconds an --exec command may run for one recall before it is stopped and counted as failed. */
export const DEFAULT_EXEC_TIMEOUT_S = 30;
export { DEFAULT_LOCK_WAIT_S } from '../../runtime/files/lock-wait.js';
