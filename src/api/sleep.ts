// An abortable sleep that removes its abort listener when it resolves, so long-lived signals do not collect them.
// A wait longer than setTimeout's limit (2^31 - 1 ms, about 24.8 days) is slept in parts: Node would run
// such a timer after 1 ms.
export const MAX_TIMER_MS = 2 ** 31 - 1;

export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  let left = ms;
  for (; left > MAX_TIMER_MS; left -= MAX_TIMER_MS) await sleepOnce(MAX_TIMER_MS, signal);
  await sleepOnce(left, signal);
}

function sleepOnce(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
