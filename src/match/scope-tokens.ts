// A scope field as tokens: dates (with both readings when the order is open), codes, words and punctuation, with phrase look-up.
import { asciiDigits } from './ascii-digits.js';
import { CJK, type DateOrder, type DateSpan, datesOf } from './scope-dates.js';
import { COUNT_NOUNS, UNITS } from './scope-words.js';

export interface Tok {
  /** The folded token ("l0237", "lot", ",", "jusqu'au"); a date's is its folded words. */
  t: string;
  at: number;
  end: number;
  date?: DateSpan;
}

/** A letter, digit or "#" of a script written with spaces between words. */
const SPACED = `(?![${CJK}])[\\p{L}\\p{N}#]`;
/**
 * A code or word ("l0237", "jusqu'au", "12.5"), a run of Chinese, Japanese or Korean letters (which no space parts from
 * a number: "1234から1240" is three tokens), or a sign.
 */
const TOKEN = new RegExp(`[${CJK}]+|${SPACED}(?:${SPACED}|['\\-./](?=${SPACED}))*|\\.{3}|[,;:()[\\]|=&+…]|-|\\.`, 'gu');

/** Dashes of every kind (\p{Pd}: hyphens, en and em dashes, wave dashes, full-width ones), the minus sign, the full-width tilde. */
const DASHES = /[\p{Pd}\u2212\uff5e]/gu;
/** Full-width ASCII ("１２３４", "：") and the multiplication sign ("2×50g"). */
const WIDE = /[\uff01-\uff5d\u00d7]/g;
const narrow = (c: string) => (c === '×' ? 'x' : String.fromCharCode(c.charCodeAt(0) - 0xfee0).toLowerCase());

/**
 * fold()'s text as every scope reader sees it (the tokens and the guards alike), with one form of each sign the scope is
 * written with, lengths unchanged (evidence quotes by position): every dash is "-" ("1234 − 1240", "L1234‑L1240",
 * "01/07/2025 ‐ 15/07/2025" are ranges), full-width forms and every script's digits are ASCII, typographic apostrophes
 * are "'" ("jusqu’à ce jour"), "n°" is "no" and "№" "n".
 */
export function prepared(folded: string): string {
  return asciiDigits(folded)
    .replace(DASHES, (c) => '-'.padEnd(c.length))
    .replace(WIDE, narrow)
    .replace(/n[°º]/g, 'no')
    .replace(/№/g, 'n')
    .replace(/[°º]/g, ' ')
    .replace(/[’‘`´]/g, "'");
}

/** A sign the tokens leave out, and the index of the token after it. */
export interface Sign {
  at: number;
  next: number;
}

/**
 * Signs the tokens may leave out without losing scope: spaces, quotes, braces, a lone slash (a list's join, as a comma
 * is), "!", "¡", "¿", "%", "‰", "@", currency, trademark signs and bullets. Any other (≤, >, ~, *, ?, →, an invisible
 * character) beside a code or a date may change what it names: such a field is not read whole.
 */
const HARMLESS = /[\s"'«»‹›„‟‚‛“”{}⟨⟩〈〉《》「」『』【】/!¡¿%‰@\p{Sc}®©™℗℠•‣◦⁃∙·●○▪▫■□►▸✓✔]/u;
const OTHER = new RegExp(`(?!${HARMLESS.source})[^]`, 'gu');

/**
 * The tokens of a prepared text, in order; a date is one token however many words it spans. The signs no token takes,
 * other than harmless ones, are added to `signs` (where given).
 */
export function tokenize(text: string, order: DateOrder, signs?: Sign[]): Tok[] {
  const toks: Tok[] = [];
  let from = 0;
  const skipped = (at: number, to: number) => {
    if (signs === undefined || to - at < 1 || (to - at === 1 && text.charCodeAt(at) === 32)) return;
    // A gap holds no token's character, so the search stops at the next token at the latest: no copy of the text.
    OTHER.lastIndex = at;
    for (let m = OTHER.exec(text); m !== null && m.index < to; m = OTHER.exec(text))
      signs.push({ at: m.index, next: toks.length });
  };
  const words = (to: number) => {
    TOKEN.lastIndex = from;
    const part = text.slice(0, to);
    let last = from;
    for (let m = TOKEN.exec(part); m !== null; m = TOKEN.exec(part)) {
      skipped(last, m.index);
      toks.push({ t: m[0], at: m.index, end: m.index + m[0].length });
      last = m.index + m[0].length;
    }
    skipped(last, to);
  };
  for (const date of datesOf(text, order)) {
    words(date.at);
    toks.push({ t: text.slice(date.at, date.end), at: date.at, end: date.end, date });
    from = date.end;
  }
  words(text.length);
  return toks;
}

/** Phrases indexed by their first word, so that each token costs one map look-up. */
export class Phrases<T extends { words: readonly string[] }> {
  private readonly byFirst = new Map<string, T[]>();
  constructor(list: readonly T[]) {
    for (const p of [...list].sort((a, b) => b.words.length - a.words.length)) {
      const first = p.words[0] as string;
      const had = this.byFirst.get(first);
      if (had) had.push(p);
      else this.byFirst.set(first, [p]);
    }
  }
  /** The longest phrase starting at toks[i], and how many tokens it takes; "." between words is skipped ("ch.-b."). */
  at(toks: readonly Tok[], i: number): { phrase: T; length: number } | undefined {
    const tok = toks[i];
    if (!tok || tok.date) return undefined;
    for (const phrase of this.byFirst.get(tok.t) ?? []) {
      let j = i;
      let ok = true;
      for (const w of phrase.words) {
        while (toks[j]?.t === '.' && w !== '.' && j > i) j++;
        if (toks[j]?.t !== w || toks[j]?.date) {
          ok = false;
          break;
        }
        j++;
      }
      if (ok) return { phrase, length: j - i };
    }
    return undefined;
  }
}

export const wordsOf = (list: readonly (readonly string[])[]) => new Phrases(list.map((words) => ({ words })));

const isDigit = (c: number) => c >= 48 && c <= 57;
export const hasDigit = (t: string) => {
  for (let i = 0; i < t.length; i++) if (isDigit(t.charCodeAt(i))) return true;
  return false;
};
/** A code: letters, digits and inner dashes, dots or slashes, with a digit. */
export const isCode = (tok: Tok | undefined): tok is Tok =>
  tok !== undefined && tok.date === undefined && /^[\p{L}\p{N}]/u.test(tok.t) && hasDigit(tok.t);
export const isWord = (tok: Tok | undefined): tok is Tok =>
  tok !== undefined && tok.date === undefined && /^[\p{L}'#]+$/u.test(tok.t);

/**
 * A number with its unit ("65w", "500g", "1,5l") or followed by one ("25 kg", "12 pots"): a quantity, never a lot.
 * Under a plain lot label ("Lot 2104A") a one-letter unit is read as part of the code: `letterUnits` false.
 */
export function isQuantity(toks: readonly Tok[], i: number, letterUnits = true): boolean {
  const tok = toks[i];
  if (!tok || tok.date) return false;
  const glued = /^\d+(?:[.,]\d+)?([a-z%]+)$/.exec(tok.t);
  if (glued && UNITS.has(glued[1] as string) && (letterUnits || (glued[1] as string).length > 1)) return true;
  // FSIS hyphenates its sizes ("1.75-oz", "19-oz"); a hyphen before one letter ("12-A") may be a lot's.
  const hyphened = /^\d+(?:[.,]\d+)?-([a-z]{2,})$/.exec(tok.t);
  if (hyphened && UNITS.has(hyphened[1] as string)) return true;
  // A multipack: "2x50g", "12x33cl", "6x".
  if (/^\d+x(?:\d+(?:[.,]\d+)?[a-z]*)?$/.test(tok.t)) return true;
  if (!/^\d+(?:[.,]\d+)?$/.test(tok.t)) return false;
  const next = toks[i + 1]?.t ?? '';
  return UNITS.has(next) || COUNT_NOUNS.has(next);
}
