// How long a run waits for another that holds its output or state file: its own module, so that help can name it.

/** Seconds a run waits for another that writes the same output or state file (a cron job that overran). */
export const DEFAULT_LOCK_WAIT_S = 60;
