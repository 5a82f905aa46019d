// Waiting for a condition instead of for a fixed time: polls until it holds, fails naming what never came.

/** Resolves once `check()` is true (polled every 20 ms); rejects after `ms` saying what it waited for. */
export async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves with the first value `attempt()` gives that `ok` accepts; rejects after `ms`. */
export async function untilValue<T>(
  what: string,
  attempt: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await attempt();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
