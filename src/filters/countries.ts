// Countries as whole values: ISO 3166 codes and their names in English, French, German and Spanish, so DE = Germany = Allemagne.
import { fold } from './normalize.js';

/** The languages whose names are known (Intl.DisplayNames, from Node's own ICU data: no table typed by hand). */
const LANGUAGES = ['en', 'fr', 'de', 'es'];
/** Names agencies write that ICU does not give: older or shorter forms. */
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
  "people's republic of china": 'CN',
  'peoples republic of china': 'CN',
  'hong kong sar': 'HK',
  taiwan: 'TW',
  macedonia: 'MK',
  burma: 'MM',
  swaziland: 'SZ',
};

let byName: Map<string, string> | undefined;
let codes: Set<string> | undefined;

/** Every region code ICU names, and every name of each in the four languages: built on first use (a few ms). */
function tables(): { byName: Map<string, string>; codes: Set<string> } {
  if (byName && codes) return { byName, codes };
  byName = new Map();
  codes = new Set();
  const names = LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region', fallback: 'none' }));
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let known = false;
      for (const n of names) {
        let name: string | undefined;
        try {
          name = n.of(code);
        } catch {
          name = undefined;
        }
        if (name === undefined || name === code) continue;
        known = true;
        byName.set(fold(name), code);
      }
      if (known) codes.add(code);
    }
  for (const [name, code] of Object.entries(ALIASES)) byName.set(fold(name), code);
  return { byName, codes };
}

/** The ISO code of one country written as a code or a name ("de", "Germany", "Allemagne"); undefined when unknown. */
export function countryCode(text: string): string | undefined {
  const key = fold(text).replace(/[.]/g, '').trim();
  if (key === '') return undefined;
  const t = tables();
  if (/^[a-z]{2}$/.test(key) && t.codes.has(key.toUpperCase())) return key.toUpperCase();
  return t.byName.get(key);
}

/** The countries a country_of_origin field names: "China", "China, Vietnam", "CN / VN", "Made in Germany and Poland". */
export function countriesIn(value: string): string[] {
  const out = new Set<string>();
  for (const part of value.split(/[,;/|&+]|\s(?:and|et|und|y|or|ou)\s/i)) {
    const trimmed = part.replace(/^\s*(?:made in|fabrique en|hergestellt in|hecho en)\s+/i, '').trim();
    const code = countryCode(trimmed);
    if (code !== undefined) out.add(code);
  }
  return [...out];
}

/** The parts of a country_of_origin field that `--country` compares a country it does not know with, each whole. */
export function countryFieldParts(value: string): string[] {
  return value.split(/[,;/|&+]/);
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
