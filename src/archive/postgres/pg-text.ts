// PostgreSQL's text refuses NUL (U+0000), which JSON allows: what we write to a text column has it replaced.
import { mapTexts } from '../../api/text-values.js';
import { wellFormed } from '../sql/stored-text.js';

/** What stands for a NUL in PostgreSQL's text columns: the Unicode replacement character. */
const NUL_STAND_IN = '\uFFFD';

/** `value` with every NUL replaced by U+FFFD; anything but a string as it is. */
export function pgText<T>(value: T): T {
  return (
    typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', NUL_STAND_IN) : value
  ) as T;
}

/** Every string inside `value` (objects and arrays walked) as a text column holds it: no NUL, no lone surrogate. */
export function pgTexts<T>(value: T): T {
  return mapTexts(value, (text) => pgText(wellFormed(text)));
}

/**
 * The raw JSON text of `r` as jsonb. jsonb refuses the escape `\u0000` that JSON.stringify writes for a NUL, so a row
 * holding one is cast with U+FFFD in its place: one such recall never stops stats or recalls_view for the archive.
 */
export const rawJsonb = (r: string) =>
  `(CASE WHEN strpos(${r}.raw, '\\u0000') = 0 THEN ${r}.raw ELSE replace(${r}.raw, '\\u0000', '\\ufffd') END)::jsonb`;
