// Words that say a scope is whole ("Lot: All", "all unexpired lots") or open ("to present", "and everything in between"):
// the forms the reader reads, and the net over those it left unread beside what it read.
import { ALL, COMPLETE, DATES, IDENTIFIER_WORDS, LOTS, SENTENCE_END, YEAR } from './scope-cursor.js';
import { hasDigit, isCode, isQuantity, isWord, type Tok, wordsOf } from './scope-tokens.js';
import {
  DATE_NOUNS,
  EVERY_ADJECTIVES,
  EVERY_WORDS,
  INCLUSIVE,
  INSTRUCTION_OBJECTS,
  LIST_JOINS,
  LOT_LABEL_TAIL,
  OPEN_END_WORDS,
  OPEN_WORDS,
  POINTERS,
  PREPOSITIONS,
  RANGE_WORDS,
  WHOLE_NOUNS,
} from './scope-words.js';

const OPEN_ENDS = wordsOf(OPEN_END_WORDS);
/** What may close "Lot: All": the field's end, a stop, a list's punctuation. */
const CLOSERS = new Set(['.', ',', ';', ')', '|', '…', '...']);
/** How many tokens after what the reader read its net looks at. */
const NEAR = 6;

const isLabel = (toks: readonly Tok[], k: number) => LOTS.at(toks, k) !== undefined || DATES.at(toks, k) !== undefined;
export const isEvery = (tok: Tok | undefined) => tok !== undefined && !tok.date && EVERY_WORDS.has(tok.t);
export const isInclusive = (tok: Tok | undefined) => tok !== undefined && !tok.date && INCLUSIVE.has(tok.t);

/** A lot label or a noun "all" covers at k ("lots", "batch codes", "batches/lots", "production"): the index after it. */
function lotNounEnd(toks: readonly Tok[], k: number): number | undefined {
  const tok = toks[k];
  if (!tok || tok.date) return undefined;
  const label = LOTS.at(toks, k);
  if (label) return k + label.length;
  return tok.t.split('/').every((part) => WHOLE_NOUNS.has(part)) ? k + 1 : undefined;
}

/** A date label or a noun "all" covers at k ("dates", "date codes", "best before dates", "DLC"): the index after it. */
function dateNounEnd(toks: readonly Tok[], k: number): number | undefined {
  const label = DATES.at(toks, k);
  let end = label ? k + label.length : k;
  while (end < toks.length && end - k < 2 && DATE_NOUNS.has((toks[end] as Tok).t) && !toks[end]?.date) end++;
  return end > k ? end : undefined;
}

/** What may end a label's value "all" ("Lot: All.", "Best before: any date;", "Lot No. All, 200g …"). */
const closesValue = (toks: readonly Tok[], k: number) => {
  const next = toks[k];
  return next === undefined || CLOSERS.has(next.t) || LIST_JOINS.has(next.t) || isLabel(toks, k);
};
/** Abbreviated label words whose "." is no full stop: "Lot No. All", "Batch Nr. all", "Lot ref. all". */
const ABBREVIATED = new Set(['no', 'nos', 'nr', 'n', 'num', 'ref', 'id']);

/**
 * "all unexpired lots", "Sämtliche Losnummern", "the entire production", "all lot #s": an every-word, words that keep it
 * every lot, and a lot noun, with no code after it (then it labels a list: "all affected lots: 1234, 1235"). The index
 * after the phrase, or undefined.
 */
export function everyLotsEnd(toks: readonly Tok[], i: number): number | undefined {
  if (!isEvery(toks[i])) return undefined;
  let k = i + 1;
  while (k < toks.length && k - i <= 4 && EVERY_ADJECTIVES.has((toks[k] as Tok).t)) k++;
  const end = lotNounEnd(toks, k);
  if (end === undefined) return undefined;
  let after = end;
  while (after < toks.length && LOT_LABEL_TAIL.has((toks[after] as Tok).t) && (toks[after] as Tok).t !== '-') after++;
  return isCode(toks[after]) && !isQuantity(toks, after) ? undefined : after;
}

/**
 * After a lot label, at its first value j: "Lot: All", "Lot No. All", "lot codes: all", "Lote: todos", "Lot : tous les
 * lots" are every lot (the index after the words), "lot numbers are all printed …" an every-word that may say so
 * ('open'). Else undefined ("Lot: all lots except …" is read on as "all lots" is anywhere; "lot code. All products …"
 * starts a sentence). After a date label (`dates`): "Best before: All dates", "Use by: any date", "DLC : toutes".
 */
export function afterLabel(toks: readonly Tok[], j: number, dates = false): number | 'open' | undefined {
  if (!isEvery(toks[j]) || ALL.at(toks, j)) return undefined;
  if (toks[j - 1]?.t === '.' && !ABBREVIATED.has(toks[j - 2]?.t ?? '')) return undefined;
  const end = (dates ? dateNounEnd(toks, j + 1) : lotNounEnd(toks, j + 1)) ?? j + 1;
  if (closesValue(toks, end)) return end;
  return (dates ? undefined : everyLotsEnd(toks, j)) ?? 'open';
}

/**
 * "Ch.-B.: alle", "Sizes: all": a colon and an every-word as the whole value of a label the reader does not know. The
 * index after it, or undefined. It may name every lot: a field holding one is not read whole.
 */
export function everyValueEnd(toks: readonly Tok[], i: number): number | undefined {
  if ((toks[i]?.t !== ':' && toks[i]?.t !== '=') || !isEvery(toks[i + 1])) return undefined;
  // "100g: all lots", "100g: every lot" are read as all lots are anywhere.
  if (ALL.at(toks, i + 1) || everyLotsEnd(toks, i + 1) !== undefined) return undefined;
  const end = lotNounEnd(toks, i + 2) ?? dateNounEnd(toks, i + 2) ?? i + 2;
  return closesValue(toks, end) ? end : undefined;
}

/** "to present", "- today", "bis heute", "hasta la fecha" from k: a range word and an open end; the index after it. */
export function openEndAt(toks: readonly Tok[], k: number): number | undefined {
  const word = toks[k];
  if (!word || word.date) return undefined;
  const j = word.t === 'up' && toks[k + 1]?.t === 'to' ? k + 2 : RANGE_WORDS.has(word.t) ? k + 1 : undefined;
  if (j === undefined) return undefined;
  const end = OPEN_ENDS.at(toks, j);
  if (!end) return undefined;
  // Closed there: "to date." is an open end, "- Date de fabrication 01/01/2025" a label.
  const after = j + end.length;
  const next = toks[after];
  const closed = next === undefined || CLOSERS.has(next.t) || LIST_JOINS.has(next.t) || isLabel(toks, after);
  return closed ? after : undefined;
}

/**
 * A phrase that says a list is complete at i ("other lots are not affected"), perhaps after "all" or "any" ("all other
 * lots are not affected", "any other lot is safe"): the index after it, or undefined.
 */
export function completeEnd(toks: readonly Tok[], i: number): number | undefined {
  const at = COMPLETE.at(toks, i) ? i : isEvery(toks[i]) ? i + 1 : i;
  const complete = COMPLETE.at(toks, at);
  return complete ? at + complete.length : undefined;
}

/** A label's words before its values that the reader skips: "Lot number(s): all". */
export function pluralMark(toks: readonly Tok[], j: number): number {
  return toks[j]?.t === '(' && toks[j + 1]?.t === 's' && toks[j + 2]?.t === ')' ? j + 3 : j;
}

/** Words an every-word or an open word may stand before what it speaks of: "all later lots", "any other lot code". */
const MODIFIERS = new Set([...EVERY_ADJECTIVES, ...EVERY_WORDS, ...OPEN_WORDS, 'other', 'others', 'in']);
/** What ends a clause, for the net: a full stop, a list's other punctuation, a bracket, or a label. */
const clauseEnds = (toks: readonly Tok[], m: number) =>
  m >= toks.length || CLOSERS.has((toks[m] as Tok).t) || (toks[m] as Tok).t === '(' || isLabel(toks, m);
/** Words that may follow an open word to the end of its clause: "and everything in between", "or prior to this". */
const OPEN_TAIL = new Set([
  ...OPEN_WORDS,
  ...EVERY_WORDS,
  ...INCLUSIVE,
  ...DATE_NOUNS,
  ...WHOLE_NOUNS,
  ...POINTERS,
  'in',
  'of',
  'to',
  'the',
]);
/**
 * What a pack is sold as: an open word right before one speaks of other packs of the product, so of other lots or
 * dates ("Lot 1234 earlier packs", "Best before 30/06/2025 and older jars"); an every-word before one does not ("for all
 * pack sizes", "(all 500g packs)").
 */
const PACK_NOUNS = new Set(
  (
    'pack|packs|package|packages|packet|packets|unit|units|product|products|item|items|bag|bags|box|boxes|can|cans|' +
    'jar|jars|bottle|bottles|carton|cartons|container|containers|tin|tins|tray|trays|pouch|pouches|sachet|sachets|' +
    'shipment|shipments|delivery|deliveries|versions|emballages|produits|unites|conditionnements|' +
    'packungen|produkte|einheiten|envases|productos|unidades|paquetes'
  ).split('|'),
);
/** What may stand before a list's next value: a join, a dash, "plus" ("Lot 1234 - all", "30/06/2025 plus earlier"). */
const NEXT_VALUE = new Set([...LIST_JOINS, '-', 'plus', 'also']);
/** Whether every word from m to the end of its clause is one OPEN_TAIL holds. */
const tailOnly = (toks: readonly Tok[], m: number) => {
  for (let n = m; !clauseEnds(toks, n); n++) if (!OPEN_TAIL.has((toks[n] as Tok).t)) return false;
  return true;
};

/**
 * Whether the every-word or open word at k, left unread after what the reader read (up to j - 1), bears on a lot or a
 * date: it speaks of one ("and all later lots", "or any sooner date", "and any other lot code": a lot or date noun, or a
 * code or date nothing read, after a few modifiers), or it stands where the list's next value would ("1240 and
 * everything in between", "1234 or earlier packs", "Lot 1234, all sizes": what `all` covers there is not known), or it
 * closes the clause of what was read ("30/06/2025 plus earlier"). "packed after 1 May", "prior to recall", "(all 500g
 * packs)", "for all pack sizes", "present in all regions", "after opening", "exp 30/06/2025 all flavours" speak of
 * something else.
 */
function bearsOnScope(toks: readonly Tok[], taken: Uint8Array, j: number, k: number): boolean {
  const every = isEvery(toks[k]);
  // "after opening", "before consuming", "après l'ouverture": an instruction, not a bound.
  const instruction = (m: number) => INSTRUCTION_OBJECTS.has(toks[m]?.t ?? '');
  if (!every && (instruction(k + 1) || instruction(k + 2))) return false;
  let m = k + 1;
  while (m < toks.length && m - k <= 3 && MODIFIERS.has((toks[m] as Tok).t) && !taken[m]) m++;
  const noun = toks[m];
  // A code, read or not ("between 1 and 5"); a date only when nothing read it ("packed after 1 May" was read: a period).
  if (isCode(noun) && !isQuantity(toks, m)) return true;
  if (noun !== undefined && !taken[m]) {
    if (lotNounEnd(toks, m) !== undefined || dateNounEnd(toks, m) !== undefined || noun.date) return true;
    // "Lot 1234 earlier packs", "30/06/2025 older stock": other packs of the product, so other lots or dates.
    if (!every && PACK_NOUNS.has(noun.t)) return true;
  }
  // Where the list's next value would be: only joins since what was read, and one right before the word.
  let joined = NEXT_VALUE.has(toks[k - 1]?.t ?? '');
  for (let p = j; p < k; p++) if (!NEXT_VALUE.has((toks[p] as Tok).t)) joined = false;
  // An every-word there whose clause ends within two words ("1234, all sizes").
  if (joined && every) return clauseEnds(toks, k + 1) || clauseEnds(toks, k + 2) || clauseEnds(toks, k + 3);
  // An open word there, unless a preposition makes it speak of something else ("1234, present in all regions").
  if (joined) return !PREPOSITIONS.has(toks[k + 1]?.t ?? '') || tailOnly(toks, k + 1);
  // Else in the read words' clause, closing it ("30/06/2025 plus earlier", "Lot 1234 all"; not "…, as announced
  // before", "… all flavours").
  for (let p = j; p < k; p++) if (clauseEnds(toks, p)) return false;
  return tailOnly(toks, k + 1);
}

/**
 * The net under the reader: a word that says the scope is whole or open and bears on a lot or a date (bearsOnScope), a
 * range word before a code, or "inclusive", left unread within a few words after what the reader read, in the same
 * sentence ("Lot 1234 and 1240 and everything in between", "2025-06-14 through -16", "30 June 2025 or any sooner
 * date"). The span from the read words to it, or undefined: the field is then not read whole.
 */
export function unconsumed(toks: readonly Tok[], taken: Uint8Array): { from: number; to: number } | undefined {
  for (let j = 1; j < toks.length; j++) {
    if (taken[j] || !taken[j - 1]) continue;
    for (let k = j; k < toks.length && k - j < NEAR && !taken[k]; k++) {
      const tok = toks[k] as Tok;
      if (SENTENCE_END.has(tok.t) || LOTS.at(toks, k) || DATES.at(toks, k)) break;
      if (tok.date) continue;
      // "to L1240", "2025-06-14 through -16": a range word before a code that is no quantity ("to 12 stores"); after a
      // date, a day ("April 26, 2024 – 802 VT Frozen" is a dateline).
      const code = toks[k + 1]?.t === '-' ? k + 2 : k + 1;
      const end = toks[code];
      const range =
        RANGE_WORDS.has(tok.t) &&
        isCode(end) &&
        !isQuantity(toks, code) &&
        (!toks[j - 1]?.date || /^\d{1,2}$/.test(end.t));
      if (!range && !OPEN_WORDS.has(tok.t) && !isEvery(tok) && !isInclusive(tok)) continue;
      if (!range && !bearsOnScope(toks, taken, j, k)) continue;
      // Quoted with the words around it, in its sentence: "1240 and everything in between".
      let to = k;
      while (to + 1 < toks.length && to < k + 2 && !SENTENCE_END.has((toks[to + 1] as Tok).t)) to++;
      return { from: j - 1, to };
    }
  }
  return undefined;
}

/** How many words a list's last code and another may stand apart and still be a range's ends ("tot en met"). */
const JOIN_WORDS = 3;
/**
 * Words of English, French, German and Spanish that never join a range's ends ("Lot 12 line 3", "size 10", "from store
 * 26", "with 2104"): after one, the list stays as read and the code after it is a mention (tail). Any other word may
 * be "to" in a language the reader has no range words for ("tot", "do", "ao", "hingga", "до", "から").
 */
const NOT_A_JOIN = new Set(
  (
    'line lines size sizes store stores shop shops with from in on at for per by the of pack packs case cases box ' +
    'boxes carton cartons unit units count pieces pcs bag bags tray trays pallet pallets day days week weeks only ' +
    'avec dans pour taille magasin magasins du des la le les carton cartons uniquement seulement ' +
    'mit im fur von der die das grosse markt filiale nur ' +
    'con para talla tienda tiendas del la el los las solo solamente'
  ).split(' '),
);

/**
 * Where a lot list that stopped at k may go on in a form the reader does not know: a code in numerals it does not
 * read ("L¹²³⁴⁵", mathematical digits), or a code a few words on after a word that may be "to" ("1234 tot 1240",
 * "1234 ao 1240", "Lot 1234 ile 1240 arası", "1234 до 1240"). Gives the index of that code, up to which the list is
 * left unread; undefined when the list simply ends there.
 */
export function listGoesOn(toks: readonly Tok[], k: number): number | undefined {
  const tok = toks[k];
  if (!tok || tok.date) return undefined;
  if (/\p{N}/u.test(tok.t) && !hasDigit(tok.t)) return k;
  if (!isWord(tok) || NOT_A_JOIN.has(tok.t)) return undefined;
  for (let j = k; j < k + JOIN_WORDS; j++) {
    const word = toks[j];
    if (!isWord(word) || SENTENCE_END.has(word.t) || isLabel(toks, j) || IDENTIFIER_WORDS.has(word.t)) return undefined;
    const next = toks[j + 1];
    if (isCode(next) && !isQuantity(toks, j + 1) && !YEAR.test(next.t) && !/^\d{8,14}$/.test(next.t)) return j + 1;
  }
  return undefined;
}

/** A number with a word's ending glued on by a hyphen or an apostrophe: Hungarian "1234-től", Turkish "1234'ten". */
const ENDING = /^\d+['-]\p{L}{2,}$/u;

/**
 * Where a lot list read from j to k holds a number with a word's ending right before another code, with no join between
 * ("1234-től 1240-ig", "1234'ten 1240'a kadar": a range in a language that writes its "from" and "to" as endings): the
 * index of that code, up to which the list is left unread; undefined otherwise.
 */
export function endingsRange(toks: readonly Tok[], j: number, k: number): number | undefined {
  for (let i = j; i + 1 < k; i++) {
    const tok = toks[i] as Tok;
    if (ENDING.test(tok.t) && !isQuantity(toks, i) && isCode(toks[i + 1])) return i + 1;
  }
  return undefined;
}
