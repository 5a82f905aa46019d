// Text as a column holds it: a lone surrogate (half a UTF-16 pair, which JSON allows as \ud800) has no UTF-8 form,
// so each engine would store something other than the text a case event hashed. U+FFFD stands in for it, as it
// does for what an encoder cannot write; on both engines a NUL too, which PostgreSQL's text refuses.
import { mapTexts } from '../../api/text-values.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every lone surrogate replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** A NUL, which PostgreSQL's text refuses, or any UTF-16 surrogate (to find a lone one, which UTF-8 cannot hold). */
const UNHELD = /[\u0000\ud800-\udfff]/;

/**
 * `text` as both engines hold it: a NUL or a lone surrogate as U+FFFD (what PostgreSQL can store), so that the folded
 * filter values and stats' groups are the same on SQLite. Most texts hold neither: one test, no copy.
 */
export function heldText(text: string): string {
  return UNHELD.test(text) ? wellFormed(text).replaceAll('\u0000', '\uFFFD') : text;
}

/** Every string inside `value` (objects and arrays walked, keys too) as heldText holds it. */
export function heldTexts<T>(value: T): T {
  return mapTexts(value, heldText);
}
