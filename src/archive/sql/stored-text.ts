// Text as a column holds it: a lone surrogate (half a UTF-16 pair, which JSON allows as \ud800) has no UTF-8 form,
// so each engine would store something other than the text a case event hashed. U+FFFD stands in for it, as it
// does for what an encoder cannot write.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every lone surrogate replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}
