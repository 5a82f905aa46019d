// A catalogue row's lot cell: every code it may be (rowLotKeys), and whether it is read whole enough to prove a row out.
import { lotKey, numberedRangeEnd } from './scope-items.js';

/** A lot's label written in its cell or the notice's list: "Lot: 1234", "Charge 1234", "#1234", "n° 1234". */
const LOT_PREFIX =
  /^(?:lot|lote|los|batch|charge|chargennr|chargennummer|partie)?(?:no|nr|n|num|numero|number|#)?(?=\d)/;

/**
 * A lot key (lotKey) in the form both sides compare in: its label, the EU `L` marker and leading zeros left off
 * ("Charge 1234", "L1234" and "001234" are all 1234: Excel drops the zeros, a notice may drop the marker).
 */
export function lotCore(key: string): string {
  const bare = key.replace(LOT_PREFIX, '').replace(/^l(?=\d)/, '');
  return /^0+\d/.test(bare) ? bare.replace(/^0+/, '') : bare;
}

/** A lot's label at the start of a cell, with its marks: "LOT:1234", "Batch: 1234", "Lot n°1234", "Charge-Nr.1234", "#1234". */
const CELL_LABEL =
  /^(?:(?:lot(?:e|s)?|los|batch(?:\s*code)?|charge(?:n)?|partie)(?!\p{L}{2})\s*[-.]?\s*)?(?:(?:n\s*[°º]|no|nr|num(?:ero|éro)?|number|#)\s*\.?\s*)?[:#]?\s*(?=[\p{L}\p{N}]*\p{N})/iu;

/** Any label of a word or two before ":", "#" or "=": "Lot code:1234", "Lot ID:1234", "Lot ref: 1234", "Code lot:1234". */
const WORDS_LABEL = /^\p{L}[\p{L}.'-]*(?:\s+\p{L}[\p{L}.'-]*)?\s*[:#=]\s*(?=[\p{L}\p{N}]*\p{N})/u;

/** Hyphens of every kind (\p{Pd}), the minus sign and the hyphen bullet: "2025‑001" and "2025−001" are 2025-001. */
const DASHES = /[\p{Pd}\u2212\u2043]/gu;

/**
 * A lot cell as a shop's export may write it: compatibility forms folded (full-width digits), invisible characters,
 * quotes, brackets, Excel's leading apostrophe and ="…", and a "№" left off. Dashes stay as written (rowLotRange reads
 * an en dash as a range's).
 */
function lotCell(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/^\s*=\s*"(.*)"\s*$/s, '$1')
    .replace(/^[\s'"“”‘’«»([{]+|[\s'"“”‘’«»)\]}]+$/g, '')
    .replace(/^№\s*/, '');
}

/** The signs between a cell's codes: anything but a letter, a digit or the "-", "." and "_" inside a code. */
const BETWEEN = /[^\p{L}\p{N}\-._]+/u;
/** Where a code's head ends: a "-", "." or "_" after a letter or digit. */
const HEAD_END = /(?<=[\p{L}\p{N}])[-._]/gu;

/**
 * A catalogue lot cell as every code it may be, as written and in lotCore's form: "L35380 / L35381" (or "L123 L124", one
 * per line, or `"1234", "1235"`, `1234 (1235)`, `1234•1235`) is two lots; Excel's ="01234" is 01234; a code with a part
 * after a dash, dot or underscore ("2104-B", "2104.01") is also its head (2104), as "2104 B" is.
 */
export function rowLotKeys(raw: string): Set<string> {
  const keys = new Set<string>();
  const cell = lotCell(raw).replace(DASHES, '-');
  // Excel's number forms of a lot: 12345.0, 1.2345E+04, 12,345.
  const asNumber = /^\d+\.0+$|^\d(?:\.\d+)?e\+\d+$/i.test(cell) ? Number(cell) : Number.NaN;
  const extra = [
    ...(Number.isSafeInteger(asNumber) ? [String(asNumber)] : []),
    ...(/^\d{1,3}(?:,\d{3})+$/.test(cell) ? [cell.replace(/,/g, '')] : []),
  ];
  const split = cell.split(BETWEEN);
  // Each code's heads before a "-", "." or "_" (not an Excel number's: 12345.0 is 12345 already).
  const heads =
    extra.length > 0 ? [] : split.flatMap((part) => [...part.matchAll(HEAD_END)].map((m) => part.slice(0, m.index)));
  for (const part of [cell, ...extra, ...split, ...heads])
    for (const form of [part, part.replace(CELL_LABEL, ''), part.replace(WORDS_LABEL, '')]) {
      const key = lotKey(form);
      if (key === '') continue;
      keys.add(key);
      keys.add(lotCore(key));
    }
  return keys;
}

/**
 * A cell that names a range of lots ("L120-L130", "1001 to 1050", "12340 à 12350", "2400-2405", "12340-50") or a
 * shorthand list ("12344/45"): which of them the stock is, nothing can prove.
 */
export function rowLotRange(raw: string): boolean {
  const cell = lotCell(raw)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
  if (
    /\b[a-z]+\d+\s*-\s*[a-z]+\d+\b|\d\s+(?:to|through|thru|bis|au|a|hasta)\s+[a-z]*\d|\d\s*(?:[~–—→]|\.\.)\s*[a-z]*\d/i.test(
      cell,
    )
  )
    return true;
  // The same length and larger ("2400-2405"), or the end written short ("12340-50", "12344/45").
  const folded = cell.replace(DASHES, '-');
  for (const m of folded.matchAll(/(?<![\d.])(\d+)\s*[-/]\s*(\d+)(?![\d.])/g))
    if (numberedRangeEnd(m[1] ?? '', m[2] ?? '') !== undefined) return true;
  return false;
}

/** A cell that names no lot ("n/a", "various", "see label", "k.A.", "—"): it cannot put a row out by its lot. */
export const namesNoLot = (raw: string) => !/\p{N}/u.test(lotCell(raw));

/**
 * The words a lot cell may hold besides its codes: a lot's labels, "and"/"or", and one letter (the EU "L" marker, a
 * suffix: "2104 B"). Any other word ("1100 onwards", "from 1100", "between 1100 and 1200", "1234 exp 07/2026") may
 * change which lots the cell names.
 */
const CELL_WORD =
  /^(?:\p{L}|lot[es]?|lotes|los|batch(?:es)?|codes?|charge[n]?|chargennr|chargennummer|partie|no|nr|num|numero|number|et|and|und|ou|or|oder)$/u;

/** A cell's pieces: a code (letters and digits, "-", "." or "_" inside), a "+", the harmless signs between codes, or any other sign. */
const PIECE =
  /(?<code>[\p{L}\p{N}]+(?:[-._][\p{L}\p{N}]+)*)|(?<plus>\s*\+\s*)|(?<between>[\s,;/&|:#•·・、\\"'\p{Ps}\p{Pe}\p{Pi}\p{Pf}°]+)|(?<other>[\s\S])/gu;

/**
 * Whether a lot cell is read whole: nothing in it but codes, the labels and joins of a list (CELL_WORD), the signs
 * between its codes (a comma, a bullet, quotes, brackets, a "+" between two codes). Anything else (a bound or a span:
 * "1100+", "≥1100", "1100...1200", "from 1100", "1100 until 1200", "jusqu'à") leaves it unread, never proof.
 */
function readWhole(raw: string): boolean {
  const cell = lotCell(raw)
    .replace(DASHES, '-')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const body = cell.replace(WORDS_LABEL, '').replace(CELL_LABEL, '');
  const pieces = [...body.matchAll(PIECE)];
  return pieces.every((m, i) => {
    const { code, plus, between } = m.groups ?? {};
    if (code !== undefined) return /\p{N}/u.test(code) || CELL_WORD.test(code);
    if (between !== undefined) return true;
    // "+" joins two codes ("1234+1235", "1.2345E+04"); at an end it is a bound ("1100+").
    const [before, after] = [pieces[i - 1]?.groups, pieces[i + 1]?.groups];
    return plus !== undefined && before?.code !== undefined && after?.code !== undefined;
  });
}

/**
 * Whether a row's lot cell can prove it out of a notice's lots: it names a lot, no range of lots, and is read whole
 * (readWhole). Else the row is at most a match to verify by its lot.
 */
export const lotCellProves = (raw: string) => !namesNoLot(raw) && !rowLotRange(raw) && readWhole(raw);
