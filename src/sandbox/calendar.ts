// The sandbox's world on the calendar: each record has its own slot of absolute time, so an id is the same recall in every run.
//
// A sandbox generated relative to its start time (data.ts) invents a new world under the same ids each time
// it starts. On the calendar, record n of a seed is created in slot n (recordCount slots a day, counted from
// 2020-01-01 UTC); its id, source, content and times follow from the seed and n alone. A run sees the slots
// due by its clock; a later run sees the same records, plus those due since, and the updates that fell due
// meanwhile (a newer updated_at, as a regulator's update does).
import type { SpecRecall } from '../api/schemas.js';
import { SOURCE_IDS } from '../api/schemas.js';
import { awkwardOverrides } from './awkward.js';
import { makeRecord, pickSource, roundDown, SCRAPE_EVERY } from './data.js';
import { Rng, mixSeed } from './rng.js';
import type { SourceId } from './types.js';
import { reviseRecord } from './updates.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const EPOCH = Date.UTC(2020, 0, 1);
const ID_BASE = 100_000;
/** Share of records updated once, some time within UPDATE_WITHIN of their creation. */
const UPDATE_SHARE = 0.3;
const UPDATE_WITHIN = 3 * DAY;
/** Records older than the 24-hour window kept at the start: about 5 %, as the start-relative data. */
const OLDER = 0.05 * DAY;
/** A slot's record is stored by a scrape at most this long after the slot (the slowest source's interval). */
const SCRAPE_LAG = 60 * MINUTE;
/** How far back a date-only source's midnight may lie from the moment a notice appears. */
const DATE_ONLY_REACH = 6 * 60 * MINUTE;

/** What a slot holds, without its text (cheap: a tick looks at every slot that may change). */
interface Slot {
  n: number;
  source: SourceId;
  publishedMs: number;
  createdMicros: number;
  /** When the record appears in the API (its created_in_db_at). */
  createdMs: number;
  /** When its one update falls due, if it has one. */
  updateMs: number | undefined;
}

export class Calendar {
  private readonly gap: number;
  private readonly overrides = awkwardOverrides();
  private readonly overrideStride: number;

  constructor(
    private readonly seed: number,
    private readonly perDay: number,
  ) {
    this.gap = DAY / Math.max(perDay, 1);
    this.overrideStride = Math.max(1, Math.floor(perDay / this.overrides.length));
  }

  /** The slot under an instant. */
  slotAt(ms: number): number {
    return Math.floor((ms - EPOCH) / this.gap);
  }

  /** Ids grow with the slot, with the gaps deletions leave (one in eight). */
  idOf(n: number): number {
    return ID_BASE + n + Math.floor(n / 7);
  }

  private slot(n: number): Slot {
    const rng = new Rng(mixSeed(this.seed ^ 0xca1e, n));
    const source = pickSource(rng);
    const actual = Math.floor(EPOCH + (n + rng.next()) * this.gap);
    // A date-only source (CPSC) dates a notice at midnight when that is at most 6 h before it was seen,
    // else to the minute: so the 24-hour window holds about as many recalls at any hour of the day.
    const publishedMs = roundDown(actual, source, actual - DATE_ONLY_REACH);
    const every = SCRAPE_EVERY[source] * MINUTE;
    const offset = (mixSeed(this.seed, SOURCE_IDS.indexOf(source)) % SCRAPE_EVERY[source]) * MINUTE;
    const scrape = Math.ceil((actual - offset) / every) * every + offset;
    // One scrape inserts its whole batch in one transaction: the batch shares the exact microsecond.
    const createdMicros = scrape * 1000 + (mixSeed(scrape / 1000, this.seed) % 1_000_000);
    const createdSecond = Math.floor(scrape / 1000) * 1000;
    const updated = rng.chance(UPDATE_SHARE);
    const at = Math.floor((createdSecond + MINUTE + rng.next() * UPDATE_WITHIN) / MINUTE) * MINUTE;
    return { n, source, publishedMs, createdMicros, createdMs: scrape, updateMs: updated ? at : undefined };
  }

  /** The record of slot n as it stands at `now`, or undefined before it is created. */
  private record(slot: Slot, now: number): SpecRecall | undefined {
    if (slot.createdMs > now) return undefined;
    const createdSecond = Math.floor(slot.createdMs / 1000) * 1000;
    let record = makeRecord(new Rng(mixSeed(this.seed ^ 0xc0de, slot.n)), slot.source, this.idOf(slot.n), {
      publishedMs: slot.publishedMs,
      updatedMs: createdSecond,
      createdMicros: slot.createdMicros,
    });
    const k = slot.n % this.perDay;
    if (k % this.overrideStride === 0 && k / this.overrideStride < this.overrides.length) {
      record = { ...record, ...this.overrides[k / this.overrideStride] };
    }
    if (slot.updateMs !== undefined && slot.updateMs <= now) {
      record = reviseRecord(record, new Rng(mixSeed(this.seed ^ 0x0bda7e, slot.n)), slot.updateMs);
    }
    return record;
  }

  /** Updates still to come of the records handed out so far: checked at each tick without recomputing slots. */
  private pending: { at: number; n: number }[] = [];

  private noteUpdate(slot: Slot, now: number): void {
    if (slot.updateMs !== undefined && slot.updateMs > now) this.pending.push({ at: slot.updateMs, n: slot.n });
  }

  /** Every record created by `now` whose slot is in the 24-hour window or a little older, sorted by id. */
  dataset(now: number): SpecRecall[] {
    const out: SpecRecall[] = [];
    this.pending = [];
    for (let n = this.slotAt(now - DAY - OLDER); n <= this.slotAt(now); n++) {
      const slot = this.slot(n);
      const r = this.record(slot, now);
      if (r) {
        out.push(r);
        this.noteUpdate(slot, now);
      }
    }
    return out;
  }

  /**
   * What changed in (since, now]: records created then (`added`), and records already handed out whose
   * update fell due then (`revised`). Calls come with growing times (the sandbox's clock).
   */
  changes(since: number, now: number): { added: SpecRecall[]; revised: SpecRecall[] } {
    const added: SpecRecall[] = [];
    const revised: SpecRecall[] = [];
    if (now <= since) return { added, revised };
    const due = this.pending.filter((p) => p.at <= now);
    if (due.length > 0) this.pending = this.pending.filter((p) => p.at > now);
    for (const p of due) revised.push(this.record(this.slot(p.n), now)!);
    // A slot's record is created up to SCRAPE_LAG after the slot: those since the last call, and no older.
    const first = this.slotAt(Math.max(since - SCRAPE_LAG - MINUTE, now - DAY - OLDER));
    for (let n = first; n <= this.slotAt(now); n++) {
      const slot = this.slot(n);
      if (slot.createdMs > now || slot.createdMs <= since) continue;
      added.push(this.record(slot, now)!);
      this.noteUpdate(slot, now);
    }
    return { added, revised };
  }
}
