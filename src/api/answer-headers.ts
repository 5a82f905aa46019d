// An answer's headers as the client reads them: a header's first value, and the server's clock from its Date header,
// the one reading that the 429 waits (retry.ts), the pacer (rate-limit-headers.ts) and doctor's clock check share.

export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** A header's first value (Node gives repeated headers as an array). */
export function header(headers: AnswerHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** An IMF-fixdate (`Tue, 10 Mar 2026 12:00:00 GMT`), the only form RFC 9110 lets a server send in `Date`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** A Date before 2000 comes from a clock that was never set: no measure of the server's time. */
const EARLIEST_PLAUSIBLE_DATE_MS = Date.UTC(2000, 0, 1);

/** The server's clock when it answered (epoch ms), from a `Date` header that is present and plausible; else undefined. */
export function serverDateMs(headers: AnswerHeaders): number | undefined {
  const value = header(headers, 'date')?.trim();
  if (value === undefined || !HTTP_DATE.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) && at >= EARLIEST_PLAUSIBLE_DATE_MS ? at : undefined;
}

/**
 * The server's clock when it answered, else `now` (ours). Its reset times are on that clock, so a wait measured
 * against it holds however far ours is off.
 */
export function serverNow(headers: AnswerHeaders, now: number): number {
  return serverDateMs(headers) ?? now;
}
