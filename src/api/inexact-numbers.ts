// Numbers in an answer that JSON.parse cannot keep as sent: integers beyond 2^53 (9007199254740993 becomes
// ...992), and exponents past a double's range (1e400 becomes Infinity, which JSON writes as null). Written out
// again they differ from what the API sent, so the client says which (ClientEvent 'inexact').

/** A number as the API sent it, and as it is kept (and written) from now on. */
export interface InexactNumber {
  sent: string;
  kept: string;
}

/** JSON's strings (skipped whole, escapes included) and numbers, in order. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const INTEGER = /^-?\d+$/;

function changed(sent: string, kept: number): boolean {
  if (!Number.isFinite(kept)) return true;
  return INTEGER.test(sent) && BigInt(sent) !== BigInt(kept);
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
