// Words that say a scope is whole ("Lot: All", "all unexpired lots") or open ("to present", "and everything in between"):
// the forms the reader reads, and the net over those it left unread beside what it read.
import { ALL, DATES, LOTS, SENTENCE_END } from './scope-cursor.js';
import { isCode, isQuantity, type Tok, wordsOf } from './scope-tokens.js';
import {
  EVERY_ADJECTIVES,
  EVERY_WORDS,
  INCLUSIVE,
  LIST_JOINS,
  LOT_LABEL_TAIL,
  OPEN_END_WORDS,
  OPEN_WORDS,
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
 * After a lot label, at its first value j: "Lot: All", "lot codes: all", "Lote: todos", "Lot : tous les lots" are every
 * lot (the index after the words), "lot numbers are all printed …" an every-word that may say so ('open'). Else undefined
 * ("Lot: all lots except …" is read on as "all lots" is anywhere).
 */
export function afterLabel(toks: readonly Tok[], j: number): number | 'open' | undefined {
  if (!isEvery(toks[j]) || toks[j - 1]?.t === '.' || ALL.at(toks, j)) return undefined;
  const end = lotNounEnd(toks, j + 1) ?? j + 1;
  const next = toks[end];
  if (next === undefined || CLOSERS.has(next.t) || LIST_JOINS.has(next.t) || isLabel(toks, end)) return end;
  return everyLotsEnd(toks, j) ?? 'open';
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

/** A label's words before its values that the reader skips: "Lot number(s): all". */
export function pluralMark(toks: readonly Tok[], j: number): number {
  return toks[j]?.t === '(' && toks[j + 1]?.t === 's' && toks[j + 2]?.t === ')' ? j + 3 : j;
}

/**
 * The net under the reader: a word that says the scope is whole or open, a range word before a code, or "inclusive",
 * left unread within a few words after what the reader read, in the same sentence ("Lot 1234 and 1240 and everything
 * in between", "2025-06-14 through -16", "30 June 2025 or any sooner date"). The span from the read words to it, or
 * undefined: the field is then not read whole.
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
      // Quoted with the words around it, in its sentence: "1240 and everything in between".
      let to = k;
      while (to + 1 < toks.length && to < k + 2 && !SENTENCE_END.has((toks[to + 1] as Tok).t)) to++;
      return { from: j - 1, to };
    }
  }
  return undefined;
}
