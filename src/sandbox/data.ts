// Seeded, deterministic recall generator: realistic records per source, timestamps with ties, awkward values.
//
// Invented values (the API docs show none, see api-notes §3.3; shapes and vocabularies are ours):
// - risk_severity: low | medium | high | serious | unknown (only "high" is documented)
// - risk_types beyond "injury" and "death" (French sources use French words)
// - measure_types: recall | refund | repair | replacement | stop_use | withdrawal_from_market |
//   recall_from_end_users | sales_ban | destruction
// - alert_status: active (documented) and updated (invented)
// - counterfeit: "no" | "yes" | "unknown" | null
// - involved_parties roles: manufacturer | importer | distributor | retailer
// - standard_identifiers_and_barcodes: {type: UPC | EAN | GTIN | ASIN | batch, value}; standards_cited: strings
import { RECALL_FIELDS, SOURCE_IDS, type SpecRecall } from '../api/schemas.js';
import { awkwardOverrides } from './awkward.js';
import { buildContent } from './content.js';
import { Rng, mixSeed } from './rng.js';

import type { SourceId } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Generated in-window records stay this far inside the 24 h edge, so a test run never sees one drop out. */
const EDGE_MARGIN = 10 * MINUTE;

const SOURCE_WEIGHTS: readonly (readonly [SourceId, number])[] = [
  ['us_cpsc', 25],
  ['safety_gate', 30],
  ['uk_opss', 12],
  ['rappel_conso', 18],
  ['rappel_conso_food', 15],
];

/** How precisely each source dates its notices; coarse ones (CPSC: date only) give many ties. */
const PRECISION: Record<SourceId, number | 'date'> = {
  us_cpsc: 'date',
  safety_gate: 30 * MINUTE,
  uk_opss: MINUTE,
  rappel_conso: 1000,
  rappel_conso_food: 1000,
};

/** Minutes between ingestion runs; one run inserts a batch sharing one created_in_db_at. */
export const SCRAPE_EVERY: Record<SourceId, number> = {
  us_cpsc: 30,
  safety_gate: 60,
  uk_opss: 20,
  rappel_conso: 15,
  rappel_conso_food: 15,
};

export function naiveIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** `2025-12-19T17:30:00.123456+00:00`, the service's created_in_db_at form. */
export function microIso(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const frac = String(micros - Math.floor(ms / 1000) * 1_000_000).padStart(6, '0');
  return `${naiveIso(ms)}.${frac}+00:00`;
}

export interface RecordTimes {
  publishedMs: number;
  updatedMs: number;
  createdMicros: number;
}

export function makeRecord(rng: Rng, source: SourceId, id: number, t: RecordTimes): SpecRecall {
  const fields: Record<string, unknown> = {
    id,
    ...buildContent(rng, source, t.publishedMs),
    published_at: naiveIso(t.publishedMs),
    updated_at: naiveIso(t.updatedMs),
    created_in_db_at: microIso(t.createdMicros),
  };
  // Keys in the spec's field order, so raw JSON reads like the service's.
  return Object.fromEntries(RECALL_FIELDS.map((f) => [f, fields[f]])) as SpecRecall;
}

export function pickSource(rng: Rng, allowed?: readonly string[]): SourceId {
  const entries = allowed ? SOURCE_WEIGHTS.filter(([s]) => allowed.includes(s)) : SOURCE_WEIGHTS;
  return rng.weighted(entries.length > 0 ? entries : SOURCE_WEIGHTS);
}

export function roundDown(actual: number, source: SourceId, lo: number): number {
  const precision = PRECISION[source];
  if (precision === 'date') {
    const midnight = Math.floor(actual / DAY) * DAY;
    if (midnight >= lo) return midnight;
    return roundDownTo(actual, MINUTE, lo);
  }
  return roundDownTo(actual, precision, lo);
}

function roundDownTo(actual: number, unit: number, lo: number): number {
  const r = Math.floor(actual / unit) * unit;
  return r >= lo ? r : Math.ceil(lo / unit) * unit;
}

function timesFor(rng: Rng, seed: number, source: SourceId, lo: number, hi: number, now: number): RecordTimes {
  const actual = lo + Math.floor(rng.next() * (hi - lo));
  const publishedMs = roundDown(actual, source, lo);
  const every = SCRAPE_EVERY[source] * MINUTE;
  const offset = (mixSeed(seed, SOURCE_IDS.indexOf(source)) % SCRAPE_EVERY[source]) * MINUTE;
  const scrape = Math.ceil((actual - offset) / every) * every + offset;
  let createdMicros: number;
  if (scrape <= now) {
    // One run inserts its whole batch in one transaction, so the batch shares the exact microsecond.
    createdMicros = scrape * 1000 + (mixSeed(scrape / 1000, seed) % 1_000_000);
  } else {
    createdMicros = actual * 1000 + rng.int(0, 999_999);
  }
  const createdSecond = Math.floor(createdMicros / 1_000_000) * 1000;
  let updatedMs = createdSecond;
  if (rng.chance(0.3)) {
    updatedMs = Math.max(
      createdSecond,
      Math.floor((createdSecond + rng.next() * (now - createdSecond)) / MINUTE) * MINUTE,
    );
  }
  return { publishedMs, updatedMs: Math.min(updatedMs, Math.floor(now / 1000) * 1000), createdMicros };
}

export interface GenerateOptions {
  seed: number;
  /** Records published inside the last 24 h; about 5 % more are added older than that. */
  recordCount: number;
  startTime: number;
}

/** The sandbox's initial data, sorted by id; the same seed and startTime always give the same records. */
export function generateDataset(opts: GenerateOptions): SpecRecall[] {
  const { seed, recordCount, startTime } = opts;
  const rng = new Rng(seed);
  const olderCount = Math.round(recordCount * 0.05);
  const drafts: { source: SourceId; times: RecordTimes; content: Rng }[] = [];
  for (let i = 0; i < recordCount + olderCount; i++) {
    const source = pickSource(rng);
    const inWindow = i < recordCount;
    const lo = inWindow ? startTime - DAY + EDGE_MARGIN : startTime - 7 * DAY;
    const hi = inWindow ? startTime : startTime - DAY - EDGE_MARGIN;
    drafts.push({ source, times: timesFor(rng, seed, source, lo, hi, startTime), content: new Rng(mixSeed(seed, i)) });
  }
  // Ids grow with insertion time, as an auto-increment column would, with the gaps deletions leave.
  const order = drafts
    .map((_, i) => i)
    .sort((a, b) => {
      const d =
        (drafts[a] as (typeof drafts)[number]).times.createdMicros -
        (drafts[b] as (typeof drafts)[number]).times.createdMicros;
      return d !== 0 ? d : a - b;
    });
  const ids = new Array<number>(drafts.length);
  let id = 100_000 + rng.int(0, 9_000);
  for (const idx of order) {
    id += rng.chance(0.15) ? rng.int(2, 4) : 1;
    ids[idx] = id;
  }
  const records = drafts.map((d, i) => makeRecord(d.content, d.source, ids[i] as number, d.times));
  // The awkward values go on in-window records, so every default feed carries each of them.
  const overrides = awkwardOverrides();
  for (let i = 0; i < Math.min(overrides.length, recordCount); i++)
    Object.assign(records[i] as SpecRecall, overrides[i]);
  return records.sort((a, b) => a.id - b.id);
}

/** A record arriving at `atMs` (published, created and updated then). */
export function generateArrival(
  seed: number,
  index: number,
  id: number,
  atMs: number,
  sources?: readonly string[],
): SpecRecall {
  const rng = new Rng(mixSeed(seed ^ 0x5eed, index));
  const source = pickSource(rng, sources);
  const createdMicros = atMs * 1000 + rng.int(0, 999);
  return makeRecord(rng, source, id, {
    publishedMs: Math.floor(atMs / 1000) * 1000,
    updatedMs: Math.floor(atMs / 1000) * 1000,
    createdMicros,
  });
}
