// An attempt under way when the run is told to stop (Ctrl-C, SIGTERM, SIGHUP) finishes: the receiver may have it already.

/**
 * Waits for `attempt` to end however `stop` (the run's stop signal) goes meanwhile: a webhook post, an e-mail or a
 * command already sent, abandoned now, would be sent again after a restart, so it ends as it would have, bounded by its
 * own timeout, and the caller records how it went. The caller starts no new attempt once `stop` has aborted. A second
 * Ctrl-C ends the process at once (src/runtime/process-context.ts): nothing of the attempt is recorded, and what it was
 * for stays pending (at least once). `onStop` hears, once, of a stop that came while the attempt was under way.
 */
export async function finishUnderStop<T>(
  attempt: () => Promise<T>,
  stop: AbortSignal | undefined,
  onStop: () => void,
): Promise<T> {
  stop?.addEventListener('abort', onStop, { once: true });
  try {
    return await attempt();
  } finally {
    stop?.removeEventListener('abort', onStop);
  }
}
