// A catalogue row's lot cells: every code they may be, and whether they are read whole enough to prove a row out.
import { asciiDigits } from './ascii-digits.js';
import { lotKey, numberedRangeEnd } from './scope-items.js';

/** A lot's label written in its cell or the notice's list: "Lot: 1234", "Charge 1234", "#1234", "n° 1234". */
const LOT_PREFIX =
  /^(?:lot|lote|lotto|los|batch|charge|chargennr|chargennummer|ch|partie)?(?:no|nr|n|num|numero|number|#)?(?=\d)/;

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
  /^(?:(?:lot(?:e|s|to)?|los|batch(?:\s*code)?|charge(?:n)?|ch|partie)(?!\p{L}{2})\s*[-.]?\s*)?(?:(?:n\s*[°º]|no|nr|num(?:ero|éro)?|number|#)\s*\.?\s*)?[:#]?\s*(?=[\p{L}\p{N}]*\p{N})/iu;

/** Any label of a word or two before ":", "#" or "=": "Lot code:1234", "Lot ID:1234", "Lot ref: 1234", "Code lot:1234". */
const WORDS_LABEL = /^\p{L}[\p{L}.'-]*(?:\s+\p{L}[\p{L}.'-]*)?\s*[:#=]\s*(?=[\p{L}\p{N}]*\p{N})/u;

/** Hyphens of every kind (\p{Pd}), the minus sign and the hyphen bullet: "2025‑001" and "2025−001" are 2025-001. */
const DASHES = /[\p{Pd}\u2212\u2043]/gu;
/** The same but the en and em dashes, which rangeIn reads as a range's ("1100–1200"). */
const HYPHENS = /(?![–—])[\p{Pd}\u2212\u2043]/gu;

/**
 * A lot cell as a shop's export may write it: compatibility forms folded (full-width digits), every script's digits as
 * ASCII (Arabic-Indic, Devanagari, Thai), invisible characters,
 * quotes, brackets, Excel's leading apostrophe and ="…", and a "№" left off. Dashes stay as written (rangeIn reads
 * an en dash as a range's).
 */
function lotCell(raw: string): string {
  return asciiDigits(raw.normalize('NFKC'))
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
 * A lot cell (lotCell's, its dashes folded) as every code it may be, as written and in lotCore's form: "L35380 /
 * L35381" (or "L123 L124", one per line, or `"1234", "1235"`, `1234 (1235)`, `1234•1235`) is two lots; Excel's
 * ="01234" is 01234, and 12345.0, 1.2345E+04 and 12,345 are 12345; a code with a part after a dash, dot or underscore
 * ("2104-B", "2104.01") is also its head (2104), as "2104 B" is.
 */
function keysOf(cell: string, keys: Set<string>, whole: Set<string>): void {
  const asNumber = /^\d+\.0+$|^\d(?:\.\d+)?e\+\d+$/i.test(cell) ? Number(cell) : Number.NaN;
  const extra = [
    ...(Number.isSafeInteger(asNumber) ? [String(asNumber)] : []),
    ...(/^\d{1,3}(?:,\d{3})+$/.test(cell) ? [cell.replace(/,/g, '')] : []),
  ];
  const split = cell.split(BETWEEN);
  // Each code's heads before a "-", "." or "_" (not an Excel number's: 12345.0 is 12345 already).
  const heads =
    extra.length > 0 ? [] : split.flatMap((part) => [...part.matchAll(HEAD_END)].map((m) => part.slice(0, m.index)));
  const written = new Set([cell, ...extra, ...split]);
  for (const part of [...written, ...heads])
    for (const form of [part, part.replace(CELL_LABEL, ''), part.replace(WORDS_LABEL, '')]) {
      const key = lotKey(form);
      if (key === '') continue;
      keys.add(key);
      keys.add(lotCore(key));
      // A code as written, not a head read off it: what a part of a notice's lot may be compared with.
      if (written.has(part)) whole.add(lotCore(key));
    }
}

/**
 * A cell (lotCell's, accents left off) that names a range of lots ("L120-L130", "1001 to 1050", "12340 à 12350",
 * "2400-2405", "12340-50") or a shorthand list ("12344/45"): which of them the stock is, nothing can prove.
 */
function rangeIn(plain: string): boolean {
  const cell = plain.replace(HYPHENS, '-');
  // A letter may end a code ("1100a–1200a"), and a marker stand apart from its digits ("1100 a L 1200"); the Dutch
  // "t/m" (up to and including) is a range word too.
  if (
    /\b[a-z]+\d+\s*-\s*[a-z]+\d+\b|\d[a-z]?\s+(?:to|through|thru|bis|au|a|hasta|t\s*\/\s*m|t\.?e\.?m\.?)\s+[a-z]?\s?[a-z]*\d|\d[a-z]?\s*(?:[~–—→]|\.\.)\s*[a-z]*\d/i.test(
      cell,
    )
  )
    return true;
  // The same length and larger ("2400-2405", "1100A-1200A", "1100A-1250B"), or the end written short ("12340-50",
  // "12344/45").
  const folded = cell.replace(DASHES, '-');
  for (const m of folded.matchAll(/(?<![\d.])(\d+)[a-z]?\s*[-/]\s*(\d+)[a-z]?(?![\d.a-z])/gi)) {
    const [start, end] = [m[1] ?? '', m[2] ?? ''];
    if (numberedRangeEnd(start, end) !== undefined) return true;
    // Across a power of ten ("998-1002", "9998-10001"): the end one digit longer and larger.
    if (end.length === start.length + 1 && Number(end) > Number(start)) return true;
  }
  return false;
}

/** The words of a lot's label: "Lot", "Batch", "Charge", "No.", "Nr", "Number" ("Lot No. 1234", "Batch number 1234"). */
const LOT_WORDS =
  'lot[es]?|lotes|los|batch(?:es)?|codes?|charge[n]?|chargennr|chargennummer|partie|no|nr|num|numero|number';
/** A word of a label before a colon that WORDS_LABEL may leave off: a lot's, or "ID", "ref" ("Lot ID: 1234"). */
const LABEL_WORD = new RegExp(`^(?:${LOT_WORDS}|id|ref)$`);
/**
 * The words a lot cell may hold besides its codes: a lot's labels and "and"/"or". Any other word ("1100 onwards", "from
 * 1100", "between 1100 and 1200", "1234 exp 07/2026") may change which lots the cell names; a single letter is
 * read by LETTER.
 */
const CELL_WORD = new RegExp(`^(?:${LOT_WORDS}|et|and|und|ou|or|oder)$`);
/**
 * A single letter that may be part of the code beside it: after one ("2104 B"), or before one (the EU "L" marker, "V
 * 031"). Never "f" or "s" ("1100 f", German "and the next"; "1100 s", "et s"), nor "a" before a code ("à 1200").
 */
const LETTER = /^[a-eg-rt-z]$/;

/** A cell's pieces: a code (letters and digits, "-", "." or "_" inside), a "+", the harmless signs between codes, or any other sign. */
const PIECE =
  /(?<code>[\p{L}\p{N}]+(?:[-._][\p{L}\p{N}]+)*)|(?<plus>\s*\+\s*)|(?<between>[\s,;/&|:#•·・、\\"'\p{Ps}\p{Pe}\p{Pi}\p{Pf}°]+)|(?<other>[\s\S])/gu;

type Piece = { code?: string; plus?: string; between?: string } | undefined;
const numbered = (p: Piece) => p?.code !== undefined && /\p{N}/u.test(p.code);
const space = (p: Piece) => p?.between !== undefined && /^\s+$/.test(p.between);

/** Piece `i` is a single letter standing before a code ("L 1200"). */
const letterBefore = (pieces: Piece[], i: number) =>
  pieces[i]?.code !== undefined && LETTER.test(pieces[i].code) && space(pieces[i + 1]) && numbered(pieces[i + 2]);

/** A label of a word or two before a colon that is a lot's ("Lot ID:", "Code lot:", "Charge-Nr.:"), never "From:". */
function lotLabel(cell: string): string {
  const label = WORDS_LABEL.exec(cell)?.[0];
  if (label === undefined) return '';
  const words = label.split(/[^\p{L}]+/u).filter((w) => w !== '');
  return words.every((w) => LABEL_WORD.test(w)) ? label : '';
}

/**
 * Whether a cell (lotCell's, accents left off, dashes folded, in lower case) is read whole: nothing in it but codes,
 * the labels and joins of a list (CELL_WORD), a letter after a code ("2104 B") or before one ("L 1234", "V 031"),
 * the signs between its codes (a comma, a bullet, quotes, brackets, a "+" between two codes). Anything else (a bound or
 * a span: "1100+", "≥1100", "1100...1200", "from 1100", "From: 1100", "1100 until 1200", "jusqu'à", "1100 f") leaves it
 * unread, never proof.
 */
function wholeIn(cell: string): boolean {
  const body = cell.slice(lotLabel(cell).length).replace(CELL_LABEL, '');
  const pieces: Piece[] = [...body.matchAll(PIECE)].map((m) => m.groups);
  return pieces.every((m, i) => {
    const { code, plus, between } = m ?? {};
    if (code !== undefined) {
      if (/\p{N}/u.test(code) || CELL_WORD.test(code)) return true;
      if (!LETTER.test(code)) return false;
      const after = space(pieces[i - 1]) && numbered(pieces[i - 2]);
      const before = space(pieces[i + 1]) && (numbered(pieces[i + 2]) || letterBefore(pieces, i + 2));
      // Between two codes ("1100 a 1200", "L 1100 a L 1200") a letter may be a range's word: only the EU marker is not.
      if (after && before) return code === 'l';
      return after || (code !== 'a' && before);
    }
    if (between !== undefined) return true;
    // "+" joins two codes ("1234+1235", "1.2345E+04"); at an end it is a bound ("1100+").
    return plus !== undefined && pieces[i - 1]?.code !== undefined && pieces[i + 1]?.code !== undefined;
  });
}

/**
 * A month as spreadsheets write it in the file's language (English, German, French, Spanish, Dutch, Italian): the
 * abbreviations (`May`, `Mai`, `mei`, `mag`, `Mrz`, `mrt`, `juil.`, `ago`, `dic`, `ott`…) and the full names, after
 * accents are dropped; not any word that starts like one (`MAIN`, `GENESIS`, `OCTANE`).
 */
const MONTH_WORD = String.raw`(?:jan(?:uary|vier|uar|v)?|ene(?:ro)?|gen(?:naio)?|feb(?:ruary|ruar|rero|braio)?|fev(?:rier|r)?|mar(?:ch|s|z|zo)?|mrz|mrt|maart|apr(?:il|ile)?|avr(?:il)?|abr(?:il)?|ma[iy]|mayo|mei|mag(?:gio)?|jun(?:e|i|io)?|juin|giu(?:gno)?|jul(?:y|i|io)?|juil(?:let)?|lug(?:lio)?|aug(?:ust|ustus)?|aout|ago(?:sto)?|sep(?:t|tember|tembre|tiembre)?|set(?:iembre|tembre)?|oct(?:ober|obre|ubre)?|okt(?:ober)?|ott(?:obre)?|nov(?:ember|embre|iembre)?|dec(?:ember|embre)?|dez(?:ember)?|dic(?:iembre|embre)?)\.?`;
/** "May-25", "5-May-25", "Mai 2025", "juil.-25": a lot the spreadsheet read as a month and a year (two or four digits). */
const MONTH_FIRST = new RegExp(String.raw`^(?:\d{1,2}[-. ] ?)?${MONTH_WORD}[-. ] ?(?:\d{2}|(?:19|20)\d{2})$`, 'i');
/** "25-May", "05. Mai", "25-mei": one read as a day and a month. */
const DAY_MONTH = new RegExp(String.raw`^\d{1,2}[-. ] ?${MONTH_WORD}$`, 'i');

/**
 * A cell a spreadsheet has changed past reading, or that stands for many lots: a number shown in scientific form
 * with digits dropped ("1.23457E+11", "1,23457E+11", "2.50E+11" of the code 25E10), one cut to 15 digits and filled
 * with zeros ("1234567890123450000"), a lot turned into a month ("May-25" of 05-25, "Mar-04" of 2104-03), or a
 * wildcard ("11XX", "L11xx").
 */
function mangled(cell: string): boolean {
  const scientific = /^(\d)[.,](\d+)e\+?(\d+)$/i.exec(cell);
  if (scientific && (scientific[2] ?? '').length < Number(scientific[3])) return true;
  if (/^\d{16,}$/.test(cell) && cell.endsWith('0')) return true;
  if (MONTH_FIRST.test(cell) || DAY_MONTH.test(cell)) return true;
  return /\dx{2,}\b/i.test(cell);
}

/** What a row's lot cells say: every code they may be, and whether they prove the row out of lots they are none of. */
export interface RowLots {
  keys: ReadonlySet<string>;
  /** The keys of the codes as written (lotCore's form), without the heads read off them ("2104" of "2104-B"). */
  whole: ReadonlySet<string>;
  /**
   * Every cell names a lot, no range of lots, and is read whole (wholeIn). Else the row is at most a match to verify by
   * its lot.
   */
  proves: boolean;
}

/**
 * A row's lot cells (each lot column's and its GS1 code's lot), each read on its own: the row is each of their codes,
 * and out by its lot only if every cell proves. Read once per row: the scope check of each notice only looks it up.
 */
export function rowLots(raws: readonly string[]): RowLots {
  const keys = new Set<string>();
  const whole = new Set<string>();
  let proves = raws.length > 0;
  for (const raw of raws) {
    const cell = lotCell(raw);
    keysOf(cell.replace(DASHES, '-'), keys, whole);
    if (!proves) continue;
    // A cell that names no lot ("n/a", "various", "see label", "k.A.", "—") cannot put a row out by its lot.
    const plain = cell.normalize('NFD').replace(/\p{M}+/gu, '');
    proves =
      /\p{N}/u.test(cell) &&
      !rangeIn(plain) &&
      !mangled(plain.trim()) &&
      wholeIn(plain.replace(DASHES, '-').toLowerCase());
  }
  return { keys, whole, proves };
}
