// The lots and dates a notice names (its scope), read from its identifiers and text, and a catalogue row checked against them.
import { fold } from '../filters/normalize.js';
import { normalizeGtin } from './gtin.js';
import { type DateSpan, findDates } from './scope-dates.js';

/** Where an item was read and the notice's words that say it. */
interface Found {
  field: string;
  text: string;
  /** The GTIN (14 digits) of the identifier line the item was read from, when it starts with one. */
  gtin14?: string;
}
export type DateKind = 'best-before' | 'use-by' | 'production' | 'period';
export type ScopeItem =
  | (Found & { kind: 'lot'; lot: string })
  | (Found & { kind: 'all-lots' })
  | (Found & { kind: 'date'; dateKind: DateKind; from: string; to: string });

/** The notice's fields a scope is read from, in this order. */
const SCOPE_FIELDS = [
  'standard_identifiers_and_barcodes',
  'production_dates',
  'product_description',
  'packaging_description',
] as const;

const ALL_LOTS =
  /\b(?:tous (?:les )?lots|toutes les dates|tous les numeros de lot|all (?:lots|batches|lot (?:codes|numbers)|batch codes|best[- ]before dates|dates|production dates)|alle (?:chargen|losnummern|mhd|mindesthaltbarkeitsdaten))\b/g;
/** Date labels by kind; "DDM 04/04/2021", "Date limite de consommation 12/11/2020", "MHD 04.04.2021", "Use by 12 May 2021". */
const DATE_LABELS: [DateKind, RegExp][] = [
  [
    'best-before',
    /\b(?:date de durabilite minimale|ddm|dluo|a consommer de preference avant(?: le| fin)?|best[- ]before(?: end| date)?|bbe|bbd|best by|best if used by|mhd|mindesthaltbarkeitsdatum|mindestens haltbar bis|exp(?:iry|iration)?(?: date)?|exp\.|date de peremption)\b/g,
  ],
  [
    'use-by',
    /\b(?:date limite de consommation|dlc|a consommer jusqu ?au|use[- ]by(?: date)?|verbrauchsdatum|(?:zu )?verbrauchen bis)\b/g,
  ],
  [
    'production',
    /\b(?:date de fabrication|fabrique le|fabrication|produced|production date|manufactured|manufacture date|herstellungsdatum|hergestellt am|date code)\b/g,
  ],
];
/** A lot label, then its codes: "Lot V028", "Lots L0237 et L0238", "Batch code: 21045", "Charge 1234", "Los-Nr. A12". */
const LOT_LABEL =
  /\b(?:n ?[o°]? de lots?|numeros? de lots?|lots?|batch(?:es)?(?: codes?| numbers?| no\.?)?|charge(?:n|nnummer|n-nr\.?)?|ch\.-b\.|los(?:nummer|-nr\.?)?)(?![\p{L}\p{N}])\s*(?:(?:n ?[o°]|nr|no|number|#|:|\.)\s*)*/gu;
/** A lot code: letters, digits, dashes, dots or slashes with at least one digit; 2 characters or more. */
const LOT_CODE = /^[a-z0-9][a-z0-9\-./]*$/;
const LOT_JOIN = /^(?:,|;|\/|et|and|und|&|-|ou|or)$/;
/** Words after a number that make it a quantity, not a lot ("charge 25 kg"). */
const UNIT_AFTER = /^(?:g|kg|mg|l|ml|cl|w|v|a|kw|mah|h|%|x|pieces?|pcs|stuck)$/;

/** Lots compare without case, accents, spaces, dashes, dots or slashes. */
export function lotKey(raw: string): string {
  return fold(raw).replace(/[\s\-./_]+/g, '');
}

/** Up to this many words of other column headers stand between a table's lot header and its first row. */
const TABLE_HEADER_WORDS = 3;
/** A table's other columns: a GTIN ("850027975177"), a date or a month ("09/2021"). */
const TABLE_OTHER_CELL = /^(?:\d{8,14}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{1,2}[/.]\d{4}|\d{4}-\d{2}(?:-\d{2})?)$/;

/**
 * A table whose header names lots: "UPC Lot Number Manufacturing Date 850027975177 0515I1 09/2021 0130B2 01/2022 …"
 * (CPSC 26221). After the lot header, a few header words, then cells: GTINs and dates are other columns, every
 * other code is a lot, up to the first word that is no cell. Two lots at least, or it is prose, not a table.
 */
function tableLotsAfter(folded: string, from: number): string[] {
  const words = folded.slice(from, from + 1500).split(/\s+/);
  let i = 0;
  while (i < words.length && i < TABLE_HEADER_WORDS && /^\p{L}+$/u.test(words[i] as string)) i++;
  if (i === 0) return [];
  const lots: string[] = [];
  for (; i < words.length; i++) {
    const w = words[i] as string;
    if (TABLE_OTHER_CELL.test(w)) continue;
    if (!LOT_CODE.test(w) || !/\d/.test(w) || w.length < 3) break;
    lots.push(w);
  }
  return lots.length >= 2 ? lots : [];
}

function lotsAfter(folded: string, from: number): string[] {
  const words = folded.slice(from, from + 120).split(/\s+|(?<=,)|(?=,)/);
  const lots: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = (words[i] as string).replace(/[);.,:]+$/, '');
    if (w === '' || LOT_JOIN.test(w)) continue;
    if (!LOT_CODE.test(w) || !/\d/.test(w) || w.length < 2 || /^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$/.test(w)) break;
    if (UNIT_AFTER.test(words[i + 1] ?? '')) break;
    lots.push(w);
  }
  return lots.length > 0 ? lots : tableLotsAfter(folded, from);
}

/** The labelled date spans of a text; a date with no label before it is a sale or production period. */
function datesIn(folded: string, monthFirst: boolean): { kind: DateKind; span: DateSpan; labelAt: number }[] {
  const labels: { kind: DateKind; at: number; end: number }[] = [];
  for (const [kind, re] of DATE_LABELS)
    for (const m of folded.matchAll(re)) labels.push({ kind, at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  labels.sort((a, b) => a.end - b.end);
  // Dates come in order: one pass over the labels finds, for each, the last label ending before it.
  let next = 0;
  return findDates(folded, monthFirst).map((span) => {
    while (next < labels.length && (labels[next] as { end: number }).end <= span.at) next++;
    // The nearest label before the date and within 40 characters; a lot code may stand between them.
    const last = labels[next - 1];
    const label = last && span.at - last.end <= 40 ? last : undefined;
    return { kind: label?.kind ?? 'period', span, labelAt: label?.at ?? span.at };
  });
}

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

/** Everything a text names: lots, "all lots", dates. `field` says where it was read; `folded` is fold(text), when the caller has it. */
export function scopeOfText(text: string, field: string, monthFirst = false, folded = fold(text)): ScopeItem[] {
  // Read on fold()'s text (fast); the map back to the notice's own characters is built only to quote something.
  let mapped: ReturnType<typeof foldMapped> | undefined;
  const quote = (at: number, end: number) => {
    if (end <= at) return '';
    mapped ??= foldMapped(text);
    const { origin } = mapped;
    // Should the two foldings ever differ (a letter whose lower case depends on its neighbours), quote the folded words.
    if (mapped.folded.trimEnd() !== folded) return folded.slice(at, end).trim();
    return text.slice(origin[at], (origin[Math.min(end, origin.length) - 1] as number) + 1).trim();
  };
  const items: ScopeItem[] = [];
  for (const m of folded.matchAll(ALL_LOTS))
    items.push({ kind: 'all-lots', field, text: quote(m.index ?? 0, (m.index ?? 0) + m[0].length) });
  for (const m of folded.matchAll(LOT_LABEL)) {
    const end = (m.index ?? 0) + m[0].length;
    for (const lot of lotsAfter(folded, end))
      items.push({ kind: 'lot', lot, field, text: quote(m.index ?? 0, folded.indexOf(lot, end) + lot.length) });
  }
  for (const d of datesIn(folded, monthFirst)) {
    items.push({
      kind: 'date',
      dateKind: d.kind,
      from: d.span.from,
      to: d.span.to,
      field,
      text: quote(d.labelAt, d.span.end),
    });
  }
  return items;
}

/**
 * One identifier of a notice: `{type: "batch", value}` is a lot; a RappelConso line "3564709006031 V028 Date de
 * durabilité minimale 04/04/2021" is a GTIN, then its lot (the words before the date label), then a date.
 */
export function scopeOfIdentifier(id: unknown, monthFirst = false): ScopeItem[] {
  const field = 'standard_identifiers_and_barcodes';
  const type = typeof (id as { type?: unknown })?.type === 'string' ? fold((id as { type: string }).type) : '';
  const raw = typeof id === 'string' ? id : (id as { value?: unknown })?.value;
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  // RappelConso's export writes "GTIN$lot$date kind$date" per product and "|" between products.
  if (raw.includes('|')) return raw.split('|').flatMap((part) => scopeOfIdentifier({ type, value: part }, monthFirst));
  const value = raw.replace(/\s*\$\s*/g, ' ').trim();
  const folded = fold(value);
  const { rest, gtin14 } = leadingGtin(folded);
  const items = lineItems(value, folded, rest, type, field, monthFirst);
  // Items of a line that starts with a GTIN belong to that product ("A lot L1 | B lot L2").
  return gtin14 === undefined ? items : items.map((i) => ({ ...i, gtin14 }));
}

/** `folded` is the line folded, `rest` what follows its leading GTIN (the whole line without one). */
function lineItems(
  value: string,
  folded: string,
  rest: string,
  type: string,
  field: string,
  monthFirst: boolean,
): ScopeItem[] {
  if (/^(?:batch|lot|lot number|batch number|charge|los)$/.test(type)) {
    const all = scopeOfText(value, field, monthFirst, folded).filter((i) => i.kind === 'all-lots');
    return all.length > 0 ? all : [{ kind: 'lot', lot: value.trim(), field, text: `${type} ${value.trim()}` }];
  }
  const items = scopeOfText(value, field, monthFirst, folded);
  if (items.some((i) => i.kind === 'lot' || i.kind === 'all-lots')) return items;
  // No lot label: what stands between a leading GTIN and the first date label (or the end) is the lot;
  // without a GTIN before it, only when a date label follows ("L0237 Date limite de consommation 12/11/2020").
  // search() ignores the shared global regexes' lastIndex, so none is compiled again per line.
  const labelAt = Math.min(
    ...DATE_LABELS.map(([, re]) => {
      const at = rest.search(re);
      return at < 0 ? rest.length : at;
    }),
  );
  if (rest === folded && labelAt === rest.length) return items;
  const head = rest.slice(0, labelAt).trim();
  const codes = head.split(/[\s,;]+/).filter((w) => w !== '' && !LOT_JOIN.test(w));
  if (codes.length === 0 || findDates(head).length > 0) return items;
  if (!codes.every((w) => LOT_CODE.test(w) && /\d/.test(w))) return items;
  for (const lot of codes) items.push({ kind: 'lot', lot, field, text: value.trim() });
  return items;
}

/** A leading GTIN and the text after it: "3564709006031 2230 dlc …" is the code 3564709006031 and the lot 2230. */
function leadingGtin(folded: string): { rest: string; gtin14?: string } {
  const lead = /^\d[\d ]{0,40}\d(?![^\s])/.exec(folded)?.[0];
  if (lead === undefined) return { rest: folded };
  const groups = lead.split(' ');
  let taken = groups.length;
  while (taken > 0 && !normalizeGtin(groups.slice(0, taken).join('')).ok) taken--;
  const whole = normalizeGtin(lead);
  // No valid code: the whole run when its digits could be one (a wrong check digit), else an 8-digit or longer first group.
  if (taken === 0)
    taken = !whole.ok && whole.unchecked !== undefined ? groups.length : (groups[0] as string).length >= 8 ? 1 : 0;
  if (taken === 0) return { rest: folded };
  const code = normalizeGtin(groups.slice(0, taken).join(''));
  const gtin14 = code.ok ? code.gtin14 : code.unchecked;
  const rest = [...groups.slice(taken), folded.slice(lead.length)].join(' ').trim();
  return { rest, ...(gtin14 !== undefined && { gtin14 }) };
}

/** The US agencies write month first (04/05/2021 is April 5). */
function monthFirstOf(recall: Record<string, unknown>): boolean {
  const geo = recall.geo_jurisdictions;
  return Array.isArray(geo) && geo.length > 0 && geo.every((g) => g === 'US');
}

/** A notice's scope: every lot, "all lots" and date it names, where each was found. */
export function recallScope(recall: Record<string, unknown>): ScopeItem[] {
  const monthFirst = monthFirstOf(recall);
  const items: ScopeItem[] = [];
  const ids = recall.standard_identifiers_and_barcodes;
  for (const id of Array.isArray(ids) ? ids : []) items.push(...scopeOfIdentifier(id, monthFirst));
  for (const field of SCOPE_FIELDS.slice(1)) {
    const text = recall[field];
    if (typeof text === 'string' && text.trim() !== '') items.push(...scopeOfText(text, field, monthFirst));
  }
  return items;
}
