// GS1 element strings `(01)…(10)…(17)…` and GS1 Digital Link URIs, as a catalogue's barcode column may hold them.

/** What one code carries: the GTIN as written, and the lot and dates that narrow it to a batch. */
export interface Gs1Code {
  gtin: string;
  lot?: string;
  /**
   * The days (ISO yyyy-mm-dd, both ends included) of the date elements found: 17 expiry / use by, 15 best before,
   * 16 sell by, 13 packaging, 11 production. A date whose day is 00 is its whole month. Only the first two are the
   * pack's date a notice names (catalogue-batch.ts reads no other).
   */
  dates: { kind: 'expiry' | 'best-before' | 'sell-by' | 'packaging' | 'production'; from: string; to: string }[];
  /** An expiry or best-before element whose value is no YYMMDD date (`(17)2504`): the code's dates prove nothing. */
  unreadDate?: true;
}

const DATE_AIS = {
  '17': 'expiry',
  '15': 'best-before',
  '16': 'sell-by',
  '13': 'packaging',
  '11': 'production',
} as const;

const day = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * GS1's YYMMDD as the days it names: years 00-49 are 20xx, 50-99 19xx (the standard slides; catalogues hold recent
 * goods); DD 00 gives no day, so it is the whole month (`250400`: 1 to 30 April 2025).
 */
export function gs1Date(yymmdd: string): { from: string; to: string } | undefined {
  const m = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  if (!m) return undefined;
  const year = Number(m[1]) < 50 ? 2000 + Number(m[1]) : 1900 + Number(m[1]);
  const month = Number(m[2]);
  if (month < 1 || month > 12) return undefined;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const d = Number(m[3]);
  if (d === 0) return { from: day(year, month, 1), to: day(year, month, last) };
  if (d > last) return undefined;
  return { from: day(year, month, d), to: day(year, month, d) };
}

function fill(code: Gs1Code, ai: string, value: string): void {
  if (ai === '10' && value !== '') code.lot = value;
  const kind = DATE_AIS[ai as keyof typeof DATE_AIS];
  if (kind === undefined) return;
  const span = gs1Date(value);
  if (span) code.dates.push({ kind, ...span });
  else if (kind === 'expiry' || kind === 'best-before') code.unreadDate = true;
}

/** `(01)03301170008504(10)V028(17)210404`, spaces allowed around the parts; undefined without an (01). */
function parseElementString(raw: string): Gs1Code | undefined {
  if (!/^\s*\(\d{2,4}\)/.test(raw)) return undefined;
  const code: Gs1Code = { gtin: '', dates: [] };
  for (const m of raw.matchAll(/\((\d{2,4})\)\s*([^()]*)/g)) {
    const [ai = '', value = ''] = [m[1], (m[2] ?? '').trim()];
    if (ai === '01') code.gtin = value;
    else fill(code, ai, value);
  }
  return code.gtin === '' ? undefined : code;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** `https://id.gs1.org/01/03301170008504/10/V028?17=210404` (any host: brands run their own resolvers). */
function parseDigitalLink(raw: string): Gs1Code | undefined {
  // A URL has a scheme, so a colon: a plain barcode never pays for a thrown URL error (every notice identifier comes here).
  if (!raw.includes(':')) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const parts = url.pathname.split('/').filter((p) => p !== '');
  const at = parts.findIndex((p, i) => (p === '01' || p === 'gtin') && /^\d{8,14}$/.test(parts[i + 1] ?? ''));
  if (at < 0) return undefined;
  const code: Gs1Code = { gtin: parts[at + 1] as string, dates: [] };
  for (let i = at + 2; i + 1 < parts.length; i += 2) fill(code, parts[i] as string, decoded(parts[i + 1] as string));
  for (const [ai, value] of url.searchParams) fill(code, ai, value);
  return code;
}

/** A barcode cell read as GS1 data when it is an element string or a Digital Link; undefined for a plain code. */
export function parseGs1(raw: string): Gs1Code | undefined {
  return parseElementString(raw) ?? parseDigitalLink(raw);
}
