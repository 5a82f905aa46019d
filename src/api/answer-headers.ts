// An answer's headers as the client reads them: a header's first value, and the server's clock from its Date header,
// the one reading that the 429 waits (retry.ts), the pacer (rate-limit-headers.ts) and doctor's clock check share.

export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** A header's first value (Node gives repeated headers as an array). */
export function header(headers: AnswerHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The forms RFC 9110 (5.6.7) has a recipient read in `Date`: IMF-fixdate (`Tue, 10 Mar 2026 12:00:00 GMT`), the
 * obsolete RFC 850 form (`Tuesday, 10-Mar-26 12:00:00 GMT`), both in GMT, and asctime (`Tue Mar 10 12:00:00 2026`),
 * which names no zone and is GMT too.
 */
const GMT_DATE = /^[a-z]{3,9}, \d{2}[ -][a-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} gmt$/i;
const ASCTIME = /^[a-z]{3} [a-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/i;

function httpDateMs(value: string): number {
  if (GMT_DATE.test(value)) return Date.parse(value);
  return ASCTIME.test(value) ? Date.parse(`${value} GMT`) : Number.NaN;
}
/** A Date before 2000 comes from a clock that was never set: no measure of the server's time. */
const EARLIEST_PLAUSIBLE_DATE_MS = Date.UTC(2000, 0, 1);

/** The server's clock when it answered (epoch ms), from a `Date` header that is present and plausible; else undefined. */
export function serverDateMs(headers: AnswerHeaders): number | undefined {
  const value = header(headers, 'date')?.trim();
  if (value === undefined) return undefined;
  const at = httpDateMs(value);
  return Number.isFinite(at) && at >= EARLIEST_PLAUSIBLE_DATE_MS ? at : undefined;
}

/**
 * The server's clock when it answered, else `now` (ours). Its reset times are on that clock, so a wait measured
 * against it holds however far ours is off.
 */
export function serverNow(headers: AnswerHeaders, now: number): number {
  return serverDateMs(headers) ?? now;
}
