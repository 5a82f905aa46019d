// A notice's scope: the lots, ranges, dates and "all" it names in every field agencies put scope in, and what was left unread.
import { fold } from '../filters/normalize.js';
import { normalizeGtin } from './gtin.js';
import { type DateOrder, orderSeenIn } from './scope-dates.js';
import { lotsElsewhere } from './scope-elsewhere.js';
import { scopeGuards } from './scope-guards.js';
import { lotKey, type ScopeItem } from './scope-items.js';
import { ScopeReader } from './scope-read.js';
import { prepared } from './scope-tokens.js';

export { lotKey, type ScopeItem } from './scope-items.js';

/** The notice's fields a scope is read from, whole: identifiers first, then the free text. */
const TEXT_FIELDS = ['production_dates', 'product_description', 'packaging_description', 'alert_title'] as const;
/** Fields that hold scope and nothing else: a code no label took there is still a lot the notice may name. */
const SCOPE_ONLY = new Set(['production_dates', 'standard_identifiers_and_barcodes']);
const ID_FIELD = 'standard_identifiers_and_barcodes';

/** fold()'s text with, for each of its characters, the index of the original one: evidence quotes the notice's own words. */
function foldMapped(text: string): { folded: string; origin: number[] } {
  // Characters gathered in an array: appending to a string and reading its end flattens it each time.
  const out: string[] = [];
  const origin: number[] = [];
  let space = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const code = ch.charCodeAt(0);
    if (code === 32 || (code >= 9 && code <= 13) || (code >= 0x80 && /\s/.test(ch))) {
      if (!space) {
        out.push(' ');
        origin.push(i);
        space = true;
      }
      continue;
    }
    space = false;
    const plain =
      ch.charCodeAt(0) < 0x80
        ? ch.toLowerCase()
        : ch
            .normalize('NFD')
            .replace(/\p{M}+/gu, '')
            .toLowerCase();
    for (const c of plain) {
      out.push(c);
      origin.push(i);
    }
  }
  return { folded: out.join(''), origin };
}

/** Everything a text names: lots, ranges, "all", dates, and the scope text it could not read. */
export function scopeOfText(
  text: string,
  field: string,
  order: DateOrder = 'either',
  folded = fold(text),
): ScopeItem[] {
  return readText(text, field, order, folded, prepared(folded));
}

/**
 * A text read whole: the reader, the signs it did not read, and the guards. `reading` is `folded` as both the reader and
 * the guards see it (prepared(): one form of each dash and apostrophe; an identifier line's barcode as a lot label), of
 * the same length, so that evidence still quotes the notice's own words.
 */
function readText(text: string, field: string, order: DateOrder, folded: string, reading: string): ScopeItem[] {
  // Read on fold()'s text (fast); the map back to the notice's own characters is built only to quote something.
  let mapped: (ReturnType<typeof foldMapped> & { same: boolean }) | undefined;
  const quote = (at: number, end: number) => {
    if (end <= at) return '';
    // Compared once, not at each quote: a hostile field of many lots is quoted as often as it has items.
    if (mapped === undefined) {
      const built = foldMapped(text);
      mapped = { ...built, same: built.folded.trimEnd() === folded };
    }
    const { origin } = mapped;
    // Should the two foldings ever differ (a letter whose lower case depends on its neighbours), quote the folded words.
    if (!mapped.same) return folded.slice(at, end).trim();
    return text.slice(origin[at], (origin[Math.min(end, origin.length) - 1] as number) + 1).trim();
  };
  const cut = mayBeCut(text);
  const reader = new ScopeReader(reading, field, textOrder(reading, order), quote, SCOPE_ONLY.has(field), cut);
  const items = [...reader.read(), ...reader.signsUnread()];
  return [...items, ...scopeGuards(reading, field, items, cut)];
}

/**
 * Date labels of French and German packs: the dates under them are written day first, whatever the notice's country
 * (FSIS's Spanish alerts keep the US order, so Spanish labels are not among them).
 */
const EUROPEAN_LABEL =
  /\b(?:mhd|ddm|dlc|dluo|mindesthaltbarkeitsdatum|mindestens haltbar|verbrauchsdatum|zu verbrauchen|verbrauchen bis|verfallsdatum|verwendbar bis|date (?:de durabilite|limite|de peremption|de fabrication)|a consommer)\b/;

/**
 * The order a text's own dates show, when it contradicts its jurisdiction's: a US notice writing `28/06/2025` writes
 * day first, so its `12/05/2025` may be either; so may a US notice's dates under a European label (`MHD 05/06/2025`, an
 * imported product's). Both readings are then kept: a row is out only under every one.
 */
function textOrder(folded: string, order: DateOrder): DateOrder {
  if (order === 'either') return order;
  if (order === 'month-first' && EUROPEAN_LABEL.test(folded)) return 'either';
  const seen = { dayFirst: false, monthFirst: false };
  orderSeenIn(folded, seen);
  return (order === 'month-first' && seen.dayFirst) || (order === 'day-first' && seen.monthFirst) ? 'either' : order;
}

/** Lengths at which stores cut a text (a VARCHAR(255), a 4,000-character column). */
const STORE_LIMITS = new Set([255, 256, 500, 512, 1000, 1024, 2000, 2048, 4000, 4096, 8000, 8192]);

/** A text exactly as long as a store's limit, ending mid-sentence, may have been cut there. */
function mayBeCut(text: string): boolean {
  return STORE_LIMITS.has(text.length) && !/[.!?;)\]"”'’»]\s*$/u.test(text);
}

/**
 * One identifier of a notice: `{type: "batch", value}` is a lot; a RappelConso line "3564709006031 V028 Date de
 * durabilité minimale 04/04/2021" is a GTIN, then its lot (the codes before the date label), then a date.
 */
export function scopeOfIdentifier(id: unknown, order: DateOrder = 'either'): ScopeItem[] {
  const type = typeof (id as { type?: unknown })?.type === 'string' ? fold((id as { type: string }).type) : '';
  const raw = typeof id === 'string' ? id : (id as { value?: unknown })?.value;
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  // RappelConso's export writes "GTIN$lot$date kind$date" per product and "|" between products.
  if (raw.includes('|')) return raw.split('|').flatMap((part) => scopeOfIdentifier({ type, value: part }, order));
  const value = raw.replace(/\s*\$\s*/g, ' ').trim();
  // Any type that names a lot, batch or serial ("Lot No.", "Numéro de lot", "batch_code", "serial number").
  if (/(?:^|[^a-z])(?:batch\w*|lots?|lotes?|charge\w*|los|serials?|s\/n)(?:[^a-z]|$)/.test(type.replace(/_/g, ' ')))
    return batchValue(type, value, order);
  // A lone code ("3564709006031", an ASIN "B0C1234567") identifies the product and names no scope.
  if (!/\s/.test(value)) return [];
  const folded = fold(value);
  const reading = prepared(folded);
  const { rest, gtin14, codeEnd } = leadingGtin(reading);
  // The line without its barcode is read as scope; "3564709006031 V028 DDM …": V028 is a lot, as sure as a label.
  // When a code follows the barcode, the line is read again with the barcode as a lot label ("lot V028 DDM …"): its
  // lots then go through every check a labelled list does (a range "L555-L560", "L555 et suivants", "555 > 560").
  let items = readText(value, ID_FIELD, order, folded, reading);
  if (gtin14 !== undefined && items.some((i) => i.kind === 'lot' && !i.sure && rest.startsWith(i.lot))) {
    const labelled = 'lot'.padEnd(codeEnd) + reading.slice(codeEnd);
    const read = readText(value, ID_FIELD, order, folded, labelled);
    // Quoted and listed as before: the line for its lots, which come after its dates and before what is unread.
    const rank = (i: ScopeItem) => (i.kind === 'lot' || i.kind === 'lot-range' ? 1 : i.kind === 'unread' ? 2 : 0);
    items = [0, 1, 2].flatMap((r) =>
      read.filter((i) => rank(i) === r).map((i) => (r === 1 ? { ...i, text: value } : i)),
    );
  }
  // What follows the barcode may be a range or a code written in groups ("L555 - L560", "555 au 560", "25 123 A"):
  // its first code is no lot alone then.
  const spread = gtin14 === undefined ? null : LOT_SPREAD.exec(rest);
  if (spread)
    items.push({
      kind: 'unread',
      why: 'lots after the barcode the reader did not read whole',
      field: ID_FIELD,
      text: value,
      sure: false,
    });
  return gtin14 === undefined ? items : items.map((i) => ({ ...i, gtin14 }));
}

/** After a barcode: a range of lots ("l555 - l560", "555 au 560") or a lot in groups of digits ("25 123 a"). */
const LOT_SPREAD =
  /^(?:lots?\s+)?[a-z]*\d[a-z0-9]*\s*(?:-|~|a|au|to|through|thru|bis|al|hasta)\s+[a-z]*\d|^(?:lots?\s+)?\d{1,3}(?:\s\d{1,4})+(?:\s[a-z])?(?=\s|$)/;

/** Batch values that name every lot: "All", "alle", "todos". */
const EVERY = /^(?:all|all lots|alle|tous|toutes|todos|todas|tout|every|any)$/;

/**
 * A batch identifier's value: read as a lot label's list is ("L123, L124", "1001-1050"). A value with no digit is no
 * lot: every lot when it says so ("All"), else scope nobody wrote down ("unknown", "N/A", "-", "various"), which proves
 * nothing. A value the reader takes nothing sure from is a lot it may name, never proof.
 */
function batchValue(type: string, value: string, order: DateOrder): ScopeItem[] {
  const text = `${type} ${value}`;
  const folded = fold(value);
  if (!/\d/.test(value)) {
    if (EVERY.test(folded)) return [{ kind: 'all-lots', field: ID_FIELD, text, sure: true }];
    return [{ kind: 'unread', why: 'a batch field that names no lot', field: ID_FIELD, text, sure: false }];
  }
  const items = scopeOfText(`lot ${value}`, ID_FIELD, order);
  if (items.some((i) => i.sure)) return items.map((i) => ({ ...i, text: i.kind === 'unread' ? i.text : text }));
  // Words the reader took nothing sure from ("2401 à 2410"): scope not read whole, as a value that names no lot.
  if (/\s/.test(value.trim()))
    return [
      ...items,
      { kind: 'unread', why: 'a batch field the reader could not read', field: ID_FIELD, text, sure: false },
    ];
  return [...items, { kind: 'lot', lot: value, field: ID_FIELD, text, sure: false }];
}

/**
 * A leading GTIN and the text after it: "3564709006031 2230 dlc …" is the code 3564709006031 and the lot 2230;
 * `codeEnd` is where the code's digits end.
 */
function leadingGtin(folded: string): { rest: string; gtin14?: string; codeEnd: number } {
  const lead = /^\d[\d ]{0,40}\d(?![^\s])/.exec(folded)?.[0];
  if (lead === undefined) return { rest: folded, codeEnd: 0 };
  const groups = lead.split(' ');
  let taken = groups.length;
  while (taken > 0 && !normalizeGtin(groups.slice(0, taken).join('')).ok) taken--;
  const whole = normalizeGtin(lead);
  // No valid code: the whole run when its digits could be one (a wrong check digit), else an 8-digit or longer first group.
  if (taken === 0)
    taken = !whole.ok && whole.unchecked !== undefined ? groups.length : (groups[0] as string).length >= 8 ? 1 : 0;
  if (taken === 0) return { rest: folded, codeEnd: 0 };
  const code = normalizeGtin(groups.slice(0, taken).join(''));
  const codeEnd = groups.slice(0, taken).join(' ').length;
  const rest = [...groups.slice(taken), folded.slice(lead.length)].join(' ').trim();
  // Only a valid code ties the line to one product: an 8-digit lot ("24061502 DLC 16/06/2024") may look like a code,
  // and a line tied to no product judges every row, which can only keep more of them in scope.
  // A second barcode right after ("3017620422003 3564709006031 Lot L555"): the line is every one's, so it ties to none.
  // Nor does a GTIN-8: one 8-digit lot in ten has a valid check digit ("24061506 DLC 16/06/2024").
  const another = /^(?:\/\s*)?(\d{8,14})(?!\S)/.exec(rest)?.[1];
  const tied = code.ok && code.gtin14.startsWith('000000') === false && !(another && normalizeGtin(another).ok);
  return { rest, codeEnd, ...(tied && { gtin14: code.gtin14 }) };
}

/** Which number comes first in a notice's dates: the US writes month first, Europe and the UK day first; else either. */
const DAY_FIRST = new Set(
  'FR BE LU DE AT CH IT ES PT NL GB UK IE DK SE NO FI PL CZ SK HU RO BG GR HR SI EE LV LT CY MT IS LI AU NZ EU'.split(
    ' ',
  ),
);
export function noticeOrder(recall: Record<string, unknown>): DateOrder {
  const geo = recall.geo_jurisdictions;
  const codes = Array.isArray(geo)
    ? geo.filter((g): g is string => typeof g === 'string').map((g) => g.toUpperCase())
    : [];
  if (codes.length === 0) return 'either';
  if (codes.every((g) => g === 'US')) return 'month-first';
  if (codes.every((g) => DAY_FIRST.has(g))) return 'day-first';
  return 'either';
}

/** A notice's scope: every lot, range, "all", date and unread scope text it names, where each was found. */
export function recallScope(recall: Record<string, unknown>): ScopeItem[] {
  const order = noticeOrder(recall);
  const items: ScopeItem[] = [];
  // One at a time, never push(...list): a hostile field may give more items than a call's arguments may number.
  const add = (list: readonly ScopeItem[]) => {
    for (const item of list) items.push(item);
  };
  const ids = recall[ID_FIELD];
  // Each field's text too, for the net under the reader (writtenCodes): identifiers first, as they are read.
  const texts: [string, string][] = [];
  for (const id of Array.isArray(ids) ? ids : []) {
    add(scopeOfIdentifier(id, order));
    const value = typeof id === 'string' ? id : (id as { value?: unknown } | null)?.value;
    if (typeof value === 'string') texts.push([ID_FIELD, value]);
  }
  for (const field of TEXT_FIELDS) {
    const text = recall[field];
    if (typeof text !== 'string' || text.trim() === '') continue;
    add(scopeOfText(text, field, order));
    texts.push([field, text]);
  }
  add(writtenCodes(texts, items));
  add(lotsElsewhere(recall, items, WRITTEN_LIMIT));
  return items;
}

/** A run of letters and digits, with single dashes, dots or slashes inside ("45549A", "031825-0102", "5.99-16"). */
const CODE_WORD = /[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*/gu;
/** How much of a field is searched for codes: a hostile one may be huge. */
const WRITTEN_LIMIT = 20_000;

/**
 * The safety net under the reader: every code the scope fields write (a word with a digit) that no item names yet, as
 * a quiet mention. A row whose lot the notice writes anywhere is never excluded, whatever the reader made of the
 * words around it ("Charge A69196B, 45549A": after "charge", 45549A reads as 45549 amperes, and the list stops).
 */
function writtenCodes(texts: readonly [string, string][], items: readonly ScopeItem[]): ScopeItem[] {
  // Only a sure list proves a row out, by its lot or by its date: a row whose lot the notice writes is never out on its
  // date either ("Lot 12-06-25, 13-06-25; best before 30/06/2025" reads the lots as dates). Scope left unread already
  // keeps every row from being excluded.
  if (!items.some((i) => i.kind !== 'unread' && i.kind !== 'all-lots' && i.sure)) return [];
  if (items.some((i) => i.kind === 'unread')) return [];
  const named = new Set(items.flatMap((i) => (i.kind === 'lot' ? [lotKey(i.lot)] : [])));
  const out: ScopeItem[] = [];
  for (const [field, text] of texts)
    for (const [word] of text.slice(0, WRITTEN_LIMIT).matchAll(CODE_WORD)) {
      if (!/\d/.test(word)) continue;
      const key = lotKey(word);
      if (key.length < 2 || named.has(key)) continue;
      named.add(key);
      out.push({ kind: 'lot', lot: word, field, text: word, sure: false, mention: true, quiet: true });
    }
  return out;
}
