// One poll of the window for `--state` and `--watch`: the records not written before, oldest first, remembered once written.
import { timestampMicros } from '../../api/timestamps.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { FeedRecord, Page } from './pages.js';
import { publishedMs, type SeenState } from './seen-state.js';

export interface Poll {
  /** Records not in the state that pass the filters, at most `max`, oldest first. */
  records: FeedRecord[];
  /** Records the API sent, before the filters and the state. */
  fetched: number;
  /** Requests the poll took. */
  pages: number;
  /** The server's clock when it sent the last page that said it (serverTime); undefined when none did. */
  serverNow?: number;
}

/** A time before 2000 comes from a clock that was never set: no measure of the server's time (as for a Date header). */
const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);

/**
 * The server's clock when it sent `page` (epoch ms): its `meta.timestamp`, when the page has one and it is plausible.
 * (The client keeps no answer's `Date` header once the page is read; meta is optional, so this may be undefined.)
 */
function serverTime(page: Page): number | undefined {
  const said = page.meta?.timestamp;
  const ms = typeof said === 'string' ? Math.floor(timestampMicros(said) / 1000) : Number.NaN;
  return Number.isFinite(ms) && ms >= EARLIEST_PLAUSIBLE_MS ? ms : undefined;
}

/** Ids the state can hold: a non-empty string or a finite number. */
function hasId(record: FeedRecord): boolean {
  const id = record.id;
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id));
}

/**
 * A custom feed's records are the enterprise client's own shape; without an id there is nothing to
 * remember, and every run would write the same records again. Refused before anything is written.
 */
function checkIds(records: readonly FeedRecord[], opts: PollOptions): void {
  if (records.every(hasId)) return;
  const feed = opts.custom === undefined ? 'the feed' : `the custom feed '${opts.custom}'`;
  throw new UsageError(
    `${opts.flag} needs an id in every record, and ${feed} sent records without one`,
    "run without --state (each run then writes the whole window), or ask the feed's operator to include an id",
  );
}

function compareIds(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** By published_at, then id, so that a log reads in time order; records without a date keep their place at the end. */
export function oldestFirst(records: readonly FeedRecord[]): FeedRecord[] {
  // Each date parsed once, not at every comparison (a first run sorts the whole window).
  return records
    .map((record) => ({ record, at: publishedMs(record, Number.POSITIVE_INFINITY) }))
    .sort((a, b) => (a.at !== b.at ? (a.at < b.at ? -1 : 1) : compareIds(a.record.id, b.record.id)))
    .map(({ record }) => record);
}

export interface PollOptions {
  state: SeenState;
  /** Stop paging once this many new records are found. */
  max?: number;
  custom: string | undefined;
  /** The record filters: a record that fails them is neither written nor remembered. */
  keep?: (record: FeedRecord) => boolean;
  /** The flag that needs ids, for the message: --state or --watch. */
  flag: string;
  signal: AbortSignal;
}

/**
 * Pages through the window and collects the records the state has not seen; writes nothing. Notes in the state each id
 * the API returned, so that remember() keeps it while the API still returns it.
 */
export async function pollNew(pages: AsyncIterable<Page>, opts: PollOptions): Promise<Poll> {
  const found: FeedRecord[] = [];
  const ids = new Set<string>();
  let count = 0;
  let fetched = 0;
  let serverNow: number | undefined;
  for await (const page of pages) {
    count++;
    fetched += page.data.length;
    serverNow = serverTime(page) ?? serverNow;
    checkIds(page.data, opts);
    for (const record of page.data) {
      const id = String(record.id);
      opts.state.returned(id);
      if (opts.keep && !opts.keep(record)) continue;
      // A record that moves between pages while paging comes twice: it is still one new record.
      if (opts.state.has(id) || ids.has(id)) continue;
      ids.add(id);
      found.push(record);
    }
    if (opts.max !== undefined && found.length >= opts.max) break;
    if (opts.signal.aborted) throw opts.signal.reason;
  }
  return { records: oldestFirst(found.slice(0, opts.max)), pages: count, fetched, serverNow };
}

/**
 * How far the server's clock may run behind ours and still be believed: a machine whose clock keeps local time as if it
 * were UTC is off by at most 14 hours. A `meta.timestamp` further back is a page served stale (a cache) or a clock of
 * no use: believed, it would keep every id for ever and have a first poll write the whole day.
 */
const MAX_BEHIND_MS = 14 * 3_600_000;

/** The clock the API's window is on, as far as a poll can tell: the server's when it runs behind ours, within reason. */
export function windowClock(now: number, serverNow: number | undefined): number {
  return serverNow !== undefined && serverNow < now && now - serverNow <= MAX_BEHIND_MS ? serverNow : now;
}

/**
 * Adds the records to the state, then forgets what no window can return again. The API's window is on the server's
 * clock (`serverNow`, the poll's): measured from ours (`now`) when ours runs ahead, the state would forget ids the API
 * still returns, and the next poll would write them (and act on them) again. So the cut is from the earlier of the two
 * clocks; one of ours that runs behind keeps ids a little longer, which is harmless. A server clock too far behind to
 * believe (or an answer outside its window) cannot make the state forget an id the poll returned: prune() keeps those.
 */
export function remember(state: SeenState, records: readonly FeedRecord[], now: number, serverNow = now): void {
  const at = windowClock(now, serverNow);
  for (const record of records) state.add(record.id, publishedMs(record, at));
  state.prune(at);
}
