// The matcher's thresholds in one place: each tier's cut-off, chosen on the tune half of the corpora, never the held-out half.

/** Model keys shorter than this ("A", "12") would tie unrelated products together. */
export const MIN_MODEL_KEY = 3;
/** Dice similarity of distinctive name words from which a same-brand product is a possible match. */
export const NAME_SIMILARITY = 0.5;
/**
 * Weighed share of the catalogue name's words the notice covers, from which a same-brand row is a possible match:
 * chosen on the tune half of both corpora (bench/match-quality.mjs), never on their held-out half.
 */
export const NAME_COVERAGE = 0.75;
/**
 * Brand relations strong enough for a name to make a match: the brand field names the row's brand, or the title does
 * ("… Recalls Kirkland Signature Ready-To-Eat Ham …", where FSIS's brand field names the recalling firm). The title
 * joined on 2026-11-28: on the tune half it found 5 more rows at `match` over the three corpora and no wrong pair.
 */
export const FULL_NAME_BRANDS: ReadonlySet<string> = new Set(['same', 'spelled', 'contained', 'in-title']);
/**
 * Brand relations that make a match only with a pack size the notice names as well: the brand is written in the
 * notice's product name (FSIS quotes the label; the FDA has no brand field), not stated as its brand.
 */
export const WRITTEN_BRANDS: ReadonlySet<string> = new Set(['in-name']);
/**
 * Brand relations that only hint: a shared word, or a brand the firm was seen recalling under. With a model they give
 * `model`, with a name `brand+name`: possible, never a match.
 */
export const HINT_BRANDS: ReadonlySet<string> = new Set(['shared-word', 'alias']);
/** A catalogue name of fewer words ("Gumbo") is too little to call the same product. */
export const FULL_NAME_WORDS = 2;
/** How much of a notice's product name is searched for a catalogue brand: a hostile one may be huge. */
export const NAME_TEXT_LIMIT = 1000;
