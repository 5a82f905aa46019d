// Countries as whole values: ISO 3166 codes and their names in English, French, German and Spanish, so DE = Germany = Allemagne.
import { fold } from './normalize.js';

/** The languages whose names are known (Intl.DisplayNames, from Node's own ICU data: no table typed by hand). */
const LANGUAGES = ['en', 'fr', 'de', 'es'];

/**
 * Codes ICU names that are no current ISO 3166-1 country. A withdrawn code whose names ICU gives its successor's
 * (FX is "France", SU "Russia", UK "United Kingdom") lends them to the successor, never takes them; the rest are no
 * country at all (AN, the Netherlands Antilles, is named Curaçao, CW's own name).
 */
const WITHDRAWN: Record<string, string | undefined> = {
  FX: 'FR',
  UK: 'GB',
  SU: 'RU',
  YU: 'RS',
  CS: 'RS',
  DD: 'DE',
  DY: 'BJ',
  HV: 'BF',
  TP: 'TL',
  ZR: 'CD',
  BU: 'MM',
  NH: 'VU',
  RH: 'ZW',
  VD: 'VN',
  YD: 'YE',
  AN: undefined,
  // Not countries: the United Nations, the eurozone, outlying Oceania, ICU's pseudo-locales and "Unknown Region". The
  // codes ISO reserves for a place of its own stay (EU, as in "Made in EU"; IC, the Canary Islands), and so does XK.
  UN: undefined,
  EZ: undefined,
  QO: undefined,
  XA: undefined,
  XB: undefined,
  ZZ: undefined,
};

/**
 * Names agencies write that ICU does not give: older, shorter or common forms. Kept small; "the", "Saint"/"St.", "and"/"&"
 * and the apostrophe's forms are already the same (nameKey), so "The Netherlands" and "Saint Kitts and Nevis" need none.
 */
const ALIASES: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  korea: 'KR',
  'republic of korea': 'KR',
  russia: 'RU',
  'russian federation': 'RU',
  'viet nam': 'VN',
  'czech republic': 'CZ',
  turkey: 'TR',
  'ivory coast': 'CI',
  prc: 'CN',
  'pr china': 'CN',
  "people's republic of china": 'CN',
  'peoples republic of china': 'CN',
  'hong kong': 'HK',
  'hong kong sar': 'HK',
  hongkong: 'HK',
  macau: 'MO',
  macao: 'MO',
  taiwan: 'TW',
  macedonia: 'MK',
  burma: 'MM',
  swaziland: 'SZ',
  'dr congo': 'CD',
  drc: 'CD',
  'democratic republic of congo': 'CD',
  'democratic republic of the congo': 'CD',
  'east timor': 'TL',
  'lao pdr': 'LA',
  'holy see': 'VA',
  vatican: 'VA',
};

/**
 * A name as the tables compare it: folded, apostrophes one kind, no dots, no "the" at its start or after "and" ("Saint
 * Vincent and the Grenadines"), "Saint" as "St" and "and" as
 * "&" (ICU writes "St. Kitts & Nevis", "Côte d’Ivoire"; agencies "Saint Kitts and Nevis", "Cote d'Ivoire").
 */
function nameKey(text: string): string {
  return fold(text)
    .replace(/[’‘`´]/g, "'")
    .replace(/\./g, '')
    .replace(/\s+and\s+/g, ' & ')
    .replace(/(^|& )the\s+/g, '$1')
    .replace(/(^|\s)saint\s+/g, '$1st ')
    .replace(/\s+/g, ' ')
    .trim();
}

let tablesBuilt: { byName: Map<string, string>; codes: Set<string>; clashes: string[] } | undefined;

/**
 * Every current region code ICU names, and every name of each in the four languages: built on first use (a few ms).
 * A name two current codes share is no country's (and listed in `clashes`): neither silently wins.
 */
function tables(): { byName: Map<string, string>; codes: Set<string>; clashes: string[] } {
  if (tablesBuilt) return tablesBuilt;
  const byName = new Map<string, string>();
  const codes = new Set<string>();
  const ambiguous = new Set<string>();
  const names = LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }));
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (Object.hasOwn(WITHDRAWN, code)) continue;
      for (const n of names) {
        let name: string | undefined;
        try {
          name = n.of(code);
        } catch {
          name = undefined;
        }
        if (name === undefined || name === code) continue;
        codes.add(code);
        const key = nameKey(name);
        const had = byName.get(key);
        if (had !== undefined && had !== code) ambiguous.add(key);
        else byName.set(key, code);
      }
    }
  for (const key of ambiguous) byName.delete(key);
  tablesBuilt = { byName, codes, clashes: [...ambiguous] };
  return tablesBuilt;
}

/** The names two current codes share (none with Node's ICU today): a test keeps it so. */
export function countryNameClashes(): string[] {
  return tables().clashes;
}

/** The ISO code of one country written as a code or a name ("de", "Germany", "Allemagne"); undefined when unknown. */
export function countryCode(text: string): string | undefined {
  const key = nameKey(text);
  if (key === '') return undefined;
  // Aliases first: UK is GB.
  if (Object.hasOwn(ALIASES, key)) return ALIASES[key];
  const t = tables();
  if (/^[a-z]{2}$/.test(key) && t.codes.has(key.toUpperCase())) return key.toUpperCase();
  return t.byName.get(key);
}

/** Separators between countries wherever they stand ("China, Vietnam", "CN / VN"). */
const SEPARATORS = /[,;/|+]/;
/**
 * Words and signs that join two countries, or make one ("Germany and Poland", "Bosnia and Herzegovina"), captured so
 * that a split keeps them as written between the pieces.
 */
const JOINERS = /(\s*&\s*|\s(?:and|et|und|y|or|ou)\s)/i;
/** Only `&`: the parts `--country` compares an unknown value with. */
const AMPERSAND = /(&)/;

/** A part without its "Made in". */
const origin = (part: string) => part.replace(/^\s*(?:made in|fabriqu[eé] en|hergestellt in|hecho en)\s+/i, '').trim();

interface FieldPart {
  text: string;
  code: string | undefined;
}

/**
 * A country_of_origin field's parts, each with its country when it names one: split at , ; / | +, and a part that is
 * no country as a whole ("Germany and Poland", not "Trinidad and Tobago") also at `joiners`, keeping together the
 * longest runs of pieces that name a country ("Trinidad and Tobago and Jamaica": Trinidad and Tobago, Jamaica).
 */
function fieldParts(value: string, joiners: RegExp): FieldPart[] {
  return value.split(SEPARATORS).flatMap((text) => {
    const code = countryCode(origin(text));
    return code !== undefined ? [{ text, code }] : runs(text, joiners);
  });
}

/** A part split at its joiners, each longest run of pieces (joined as written) that names a country kept whole. */
function runs(part: string, joiners: RegExp): FieldPart[] {
  // Pieces at even indexes, the joiners as written between them at odd ones.
  const bits = part.split(joiners);
  const out: FieldPart[] = [];
  for (let i = 0; i < bits.length; i += 2) {
    let end = i;
    let code: string | undefined;
    for (let k = bits.length - 1; k >= i && code === undefined; k -= 2) {
      code = countryCode(origin(bits.slice(i, k + 1).join('')));
      end = k;
    }
    if (code === undefined) end = i;
    out.push({ text: bits.slice(i, end + 1).join(''), code });
    i = end;
  }
  return out;
}

/** countriesIn's answers: a field's values repeat across records (every filter and stats group asks per record). */
const found = new Map<string, string[]>();

/** The countries a country_of_origin field names: "China", "China, Vietnam", "CN / VN", "Made in Germany and Poland". */
export function countriesIn(value: string): string[] {
  let codes = found.get(value);
  if (codes === undefined) {
    codes = [...new Set(fieldParts(value, JOINERS).flatMap((p) => (p.code === undefined ? [] : [p.code])))];
    if (found.size >= 10_000) found.clear();
    found.set(value, codes);
  }
  return codes;
}

/** The parts of a country_of_origin field that `--country` compares a country it does not know with, each whole. */
export function countryFieldParts(value: string): string[] {
  return fieldParts(value, AMPERSAND).map((p) => p.text);
}

/**
 * The test of `--country`: whole countries, never a substring (DE is not "Bangladesh"). A value the tool does not
 * know as a country is compared as a whole part of the field, folded.
 */
export function countryTest(wanted: string): (value: unknown) => boolean {
  const code = countryCode(wanted);
  const folded = fold(wanted);
  return (value) => {
    if (typeof value !== 'string') return false;
    if (code !== undefined) return countriesIn(value).includes(code);
    return countryFieldParts(value).some((p) => fold(p) === folded);
  };
}
