// A stop (Ctrl-C, SIGTERM, SIGHUP: the run's AbortSignal) ends the statement a connection is running, whatever it waits
// for (a table lock, a slow plan): pg's client cannot be interrupted mid-query, so the server is asked to cancel it.
import type pg from 'pg';

interface StopState {
  signal: AbortSignal;
  /** Cancels what the connection runs (cancelBackend: a cancel request, else a session of its own). */
  cancel: () => Promise<void>;
  /** Open transactions a stop must not cut ('settle': they record what already happened outside the archive). */
  kept: number;
  /** A cancel on its way to the server: the next statement waits for it, so that it never lands on that one. */
  cancelling: Promise<void> | undefined;
}

const states = new WeakMap<pg.Client, StopState>();

type Query = (...args: unknown[]) => unknown;

/**
 * From now on a stop cancels the statement `client` has in flight, which then fails with the signal's reason (exit
 * 130) and its transaction rolls back. A statement sent after the stop runs: the command decides when to stop (a
 * sync marks its run interrupted, a delivery under way is settled).
 */
export function stopOnAbort(client: pg.Client, signal: AbortSignal | undefined, cancel: () => Promise<void>): void {
  if (signal === undefined) return;
  const state: StopState = { signal, cancel, kept: 0, cancelling: undefined };
  states.set(client, state);
  const query = client.query.bind(client) as Query;
  // Only the promise form: a callback or a submittable (pg-cursor) is pg's own business, and none is used here.
  (client as unknown as { query: Query }).query = (...args: unknown[]) =>
    typeof args.at(-1) === 'function' || typeof (args[0] as { submit?: unknown } | null)?.submit === 'function'
      ? query(...args)
      : stoppable(state, () => query(...args) as Promise<unknown>);
}

/** `fn` (a 'settle' transaction) with no statement of it cancelled by a stop; the lock timeout still bounds its waits. */
export async function throughStop<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  const state = states.get(client);
  if (state === undefined) return fn();
  state.kept++;
  try {
    return await fn();
  } finally {
    state.kept--;
  }
}

async function stoppable<T>(state: StopState, send: () => Promise<T>): Promise<T> {
  // PostgreSQL drops a cancel that finds the session idle; one still on its way when the next statement goes would
  // cancel that statement instead.
  while (state.cancelling) await state.cancelling;
  if (state.kept > 0 || state.signal.aborted) return send();
  let cancelled = false;
  const onAbort = () => {
    cancelled = true;
    const sent: Promise<void> = state
      .cancel()
      .catch(() => {})
      .finally(() => {
        if (state.cancelling === sent) state.cancelling = undefined;
      });
    state.cancelling = sent;
  };
  state.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await send();
  } catch (err) {
    // query_canceled after our cancel: the stop, not a statement_timeout.
    if (cancelled && (err as { code?: unknown } | null)?.code === '57014') throw state.signal.reason;
    throw err;
  } finally {
    state.signal.removeEventListener('abort', onAbort);
  }
}
