// Numbers in an answer that JSON.parse cannot keep as sent: whole numbers beyond 2^53 however written (9007199254740993
// or 9007199254740993.0 becomes ...992), and numbers past a double's range (1e400 becomes Infinity, which JSON writes as
// null). The client scans only a body that holds such a number (json-body.ts); a page scanned for one also names a
// fraction written with more digits than a double keeps (0.30000000000000000001, written 0.3). Written out
// again they differ from what the API sent, so the client says which (ClientEvent 'inexact').

/** A number as the API sent it, and as it is kept (and written) from now on. */
export interface InexactNumber {
  sent: string;
  kept: string;
}

/** JSON's strings (skipped whole, escapes included) and numbers, in order. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** A number token's parts: sign, whole digits, fraction digits, exponent. */
const PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A number written as sign, significant digits and power of ten: "9.0e3", "9000" and "9000.00" are all "+9e3". */
function decimal(text: string): string {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = PARTS.exec(text) ?? [];
  const all = whole + fraction;
  const digits = all.replace(/^0+/, '').replace(/0+$/, '');
  if (digits === '') return '0';
  // The power of the last significant digit: where the digits end, less the zeros taken off the end.
  const trailing = all.length - all.replace(/0+$/, '').length;
  return `${sign}${digits}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(trailing)}`;
}

/**
 * Whether the number written out again (JavaScript writes the shortest text that reads back as the same double) says
 * another value than the text sent: 9007199254740993 (…992), 1e400 (null); never 0.1 or 1e300, which read back as sent.
 */
function changed(sent: string, kept: number): boolean {
  return !Number.isFinite(kept) || decimal(sent) !== decimal(String(kept));
}

/**
 * Up to `limit` distinct numbers of a JSON body that do not survive JSON.parse as sent. The client asks only of a body
 * whose parsed numbers include one past 2^53 - 1 or an infinite one (json-body.ts): a scan of every page would cost
 * a sync about 2 ms a megabyte.
 */
export function inexactNumbers(body: string, limit = 3): InexactNumber[] {
  const found: InexactNumber[] = [];
  const named = new Set<string>();
  for (const [token] of body.matchAll(TOKENS)) {
    if (token.charCodeAt(0) === 0x22 || named.has(token)) continue;
    const kept = Number(token);
    if (!changed(token, kept)) continue;
    named.add(token);
    // A number thousands of digits long is named by its start: the line stays one line.
    found.push({ sent: token.length > 40 ? `${token.slice(0, 39)}…` : token, kept: JSON.stringify(kept) });
    if (found.length >= limit) break;
  }
  return found;
}
