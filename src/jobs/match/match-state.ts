// match --archive's state between runs: the file in the cache folder, its key, and reading and writing it safely.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { Catalogue, RaggedRows, RepeatedColumn } from '../../match/catalogue.js';
import type { RejectedCode } from '../../match/matcher.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import { cacheFolder } from '../../runtime/config/paths.js';
import { writeFileAtomic } from '../../runtime/files/atomic-write.js';
import { TOOL_VERSION } from '../../runtime/tool-version.js';
import { buildId } from '../../runtime/build-id.js';

/** Bumped when what the file holds changes shape: a file of another format is read as none. */
export const STATE_FORMAT = 3;

/** One recall's rows: its id, its published_at in µs as the archive orders it (null: none), its rows as written. */
export type RecallRows = [id: number, publishedUs: number | null, rows: Record<string, unknown>[]];

/**
 * What the catalogue's warnings are made of (reportCatalogue, with its file and columns): a run that checks no recall
 * reads no row, so it says them from here. The key pins the bytes and --map they come from.
 */
export interface CatalogueReport {
  readAs?: 'windows-1252' | undefined;
  repeated: RepeatedColumn[];
  ragged?: RaggedRows | undefined;
  /** The first rejected or unchecked barcodes (at least as many as are listed one per line). */
  rejected: RejectedCode[];
  /** How many there are in all. */
  total: number;
}

export interface MatchState {
  format: typeof STATE_FORMAT;
  key: string;
  /** The archive's commit stamp (ms) below which every write had been checked. */
  horizonMs: number;
  /** The --since bound (µs) the rows cover; null: the whole archive. */
  sinceUs: number | null;
  /** The catalogue as the run that wrote the state read it: what the output's columns and the last line need. */
  catalogue: {
    headers: string[];
    columns: Catalogue['columns'];
    rows: number;
    rejected: number;
    unchecked: number;
    report: CatalogueReport;
  };
  /** The recalls with rows, in any order. */
  recalls: RecallRows[];
  /**
   * [id, version stamp (µs; null: none)] of those recalls and of the archive's latest writes before the horizon, as
   * the run left them: the next run checks the archive still holds each (incremental-match.ts).
   */
  stamps: [id: number, versionUs: number | null][];
}

/** What decides a run's answers besides the recalls: any change to one is another state, so a full run. */
export interface StateInputs {
  /** The archive as it really is (archiveIdentity): never the --db text, which names other archives elsewhere. */
  archive: string;
  schema: string | undefined;
  catalogueSha256: string;
  learnedSha256: string | null;
  map: ColumnMap;
  sources: readonly string[] | undefined;
  filter: RecordFilter;
  explain: boolean;
}

/**
 * The state's key: the inputs and the tool's version and build (either may change the matching rules, so it checks every
 * recall again). The archive is its identity, never with a password.
 */
export function stateKey(inputs: StateInputs): string {
  const { archive, schema, catalogueSha256, learnedSha256, map, sources, filter, explain } = inputs;
  // The build too: a matching rule changed in a build of the same version must not carry over the old answers.
  const parts = [STATE_FORMAT, TOOL_VERSION, buildId(), archive, schema ?? null, catalogueSha256, learnedSha256];
  const rest = [Object.entries(map).sort(), sources ?? null, Object.entries(filter).sort(), explain];
  return createHash('sha256')
    .update(JSON.stringify([...parts, ...rest]))
    .digest('hex');
}

/** `<cache folder>/match-state`: the states, and the notes of their catalogues (catalogue-note.ts). */
export function stateFolder(env: Record<string, string | undefined>): string {
  return path.join(cacheFolder(env), 'match-state');
}

/** `<cache folder>/match-state/<key>.json`. */
export function stateFile(env: Record<string, string | undefined>, key: string): string {
  return path.join(stateFolder(env), `${key}.json`);
}

const isRow = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function recallRows(v: unknown): v is RecallRows {
  if (!Array.isArray(v) || v.length !== 3) return false;
  const [id, us, rows] = v as unknown[];
  return (
    Number.isInteger(id) &&
    (us === null || typeof us === 'number') &&
    Array.isArray(rows) &&
    (rows as unknown[]).every(isRow)
  );
}

const stampPair = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && (v[1] === null || Number.isInteger(v[1]));

const isInts = (v: unknown): boolean => Array.isArray(v) && v.every(Number.isInteger);

/** The report's shape, as reportCatalogue reads it: anything else would throw there. */
function validReport(r: unknown): boolean {
  if (!isRow(r) || !Number.isInteger(r.total) || !(r.readAs === undefined || r.readAs === 'windows-1252')) return false;
  const { repeated, ragged, rejected } = r;
  const repeatedOk =
    Array.isArray(repeated) &&
    repeated.every(
      (c) => isRow(c) && typeof c.header === 'string' && isInts(c.positions) && Number.isInteger(c.conflicts),
    );
  const raggedOk =
    ragged === undefined || (isRow(ragged) && isInts([ragged.header, ragged.rows]) && isInts(ragged.lines));
  const code = (c: unknown) =>
    isRow(c) && Number.isInteger(c.line) && typeof c.value === 'string' && typeof c.reason === 'string';
  return repeatedOk && raggedOk && Array.isArray(rejected) && rejected.every(code);
}

/** Checks what was parsed, and gives rows back the prototype-free shape matchRow gives them (headers are data). */
function validState(v: unknown, key: string): MatchState | undefined {
  if (!isRow(v) || v.format !== STATE_FORMAT || v.key !== key) return undefined;
  const c = v.catalogue;
  if (typeof v.horizonMs !== 'number' || !(v.sinceUs === null || typeof v.sinceUs === 'number')) return undefined;
  if (!isRow(c) || !Array.isArray(c.headers) || !isRow(c.columns)) return undefined;
  if (![c.rows, c.rejected, c.unchecked].every(Number.isInteger) || !validReport(c.report)) return undefined;
  if (!Array.isArray(v.recalls) || !v.recalls.every(recallRows)) return undefined;
  if (!Array.isArray(v.stamps) || !v.stamps.every(stampPair)) return undefined;
  for (const entry of v.recalls as RecallRows[])
    entry[2] = entry[2].map((row) => Object.assign(Object.create(null) as Record<string, unknown>, row));
  return v as unknown as MatchState;
}

export type StateRead = { state: MatchState } | { missing: true } | { unreadable: string };

/** The state at `file`: none yet, or unreadable (corrupt, another format, another key) with why; never throws. */
export async function readState(file: string, key: string): Promise<StateRead> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { unreadable: (err as Error).message };
  }
  try {
    const state = validState(JSON.parse(text), key);
    return state ? { state } : { unreadable: 'not a state this version wrote' };
  } catch {
    return { unreadable: 'not valid JSON' };
  }
}

/**
 * Replaces the state in one step (a killed run leaves the old file or the new one, never half of one), mode 0600 in
 * a folder of mode 0700: the rows hold the catalogue's products. Throws the file system's error.
 */
export async function writeState(file: string, state: MatchState, nowMs: number): Promise<void> {
  const folder = path.dirname(file);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(state));
  await sweepTemporaries(folder, nowMs);
}

/** A write in flight takes seconds; a temporary file a day old was left by a run killed mid-write. */
const LEFT_BEHIND_MS = 24 * 3_600_000;

/** Removes the temporary files killed runs left in the state folder; one that cannot be removed is left to the next run. */
async function sweepTemporaries(folder: string, nowMs: number): Promise<void> {
  for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
    if (!name.endsWith('.tmp')) continue;
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && nowMs - stat.mtimeMs > LEFT_BEHIND_MS) await fs.rm(file, { force: true }).catch(() => undefined);
  }
}
