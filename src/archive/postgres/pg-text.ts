// PostgreSQL's text refuses NUL (U+0000), which JSON allows: what we write to a text column has it replaced.
import { heldTexts } from '../sql/stored-text.js';

/** What stands for a NUL in PostgreSQL's text columns: the Unicode replacement character. */
const NUL_STAND_IN = '\uFFFD';

/** `value` with every NUL replaced by U+FFFD; anything but a string as it is. */
export function pgText<T>(value: T): T {
  return (
    typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', NUL_STAND_IN) : value
  ) as T;
}

/** Every string inside `value` (objects and arrays walked) as a text column holds it: no NUL, no lone surrogate. */
export const pgTexts = heldTexts;

/**
 * jsonb refuses two escapes that JSON.stringify writes: `\u0000` for a NUL and `\ud800` (one of \ud800 to \udfff)
 * for a lone surrogate, half a UTF-16 pair (a whole pair is never escaped). This pattern finds them, and not an
 * escaped backslash followed by such letters (`\\u0000`, text), for regexp_replace to put `\ufffd` in their place.
 */
const UNHELD_ESCAPE = String.raw`(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})`;

/**
 * The raw JSON text of `r` as jsonb, a NUL or lone surrogate cast as U+FFFD, as jsonbText writes the stat_* columns:
 * one such recall never stops stats or recalls_view for the archive. A record without a `\u` is cast as it is.
 */
export const rawJsonb = (r: string) =>
  `(CASE WHEN strpos(${r}.raw, '\\u') = 0 THEN ${r}.raw ELSE regexp_replace(${r}.raw, '${UNHELD_ESCAPE}', '\\1\\\\ufffd', 'g') END)::jsonb`;

/** recalls_view's cast as version 4 released it (a NUL only): the migration's text stays as released. */
export const nulJsonbV4 = (r: string) =>
  `(CASE WHEN strpos(${r}.raw, '\\u0000') = 0 THEN ${r}.raw ELSE replace(${r}.raw, '\\u0000', '\\ufffd') END)::jsonb`;

/**
 * JSON text (JSON.stringify's) for a jsonb column: each string in it, keys too, as a text column holds it (a NUL or
 * lone surrogate as U+FFFD), as rawJsonb casts raw. Only a text holding `\u` (one of those escapes, a control code,
 * or a backslash before a u) is parsed to see.
 */
export function jsonbText(json: string | null): string | null {
  return json?.includes('\\u') ? JSON.stringify(pgTexts(JSON.parse(json))) : json;
}
