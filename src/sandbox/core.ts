// The sandbox's mutable state behind both the HTTP server and the in-process handle: data, limits, faults, log.
import { SpecRecallSchema, type SpecRecall } from '../api/schemas.js';
import { InvalidParamsError } from '../api/api-errors.js';
import { timestampMicros } from '../api/timestamps.js';
import { Calendar } from './calendar.js';
import { generateArrival, generateDataset } from './data.js';
import { FaultConfigSchema, FaultPlan, type FaultConfig } from './faults.js';
import { DEMO_KEYS, KeyRing } from './demo-keys.js';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitConfig } from './limiter.js';
import { Rng, mixSeed } from './rng.js';
import { RecordRejectedError, RecordStore } from './store.js';
import { pickRecords, reviseRecord } from './updates.js';
import type { RequestLogEntry, SandboxOptions } from './types.js';

/** Arrivals materialised in one go at most; a clock that jumps months ahead skips the rest. */
const MAX_ARRIVALS_PER_TICK = 50_000;
/** Arrival-stream indexes of records added on request, apart from the timed arrivals. */
const ADDED_INDEX_BASE = 10_000_000;
/** Updates at most per call or tick: the whole store, at the sandbox's largest size. */
const MAX_UPDATES = 200_000;
const DAY_MS = 86_400_000;
/** The request log keeps this many newest entries, so a long-running sandbox does not grow without end. */
export const MAX_LOG_ENTRIES = 50_000;

function checkRateLimits(rl: RateLimitConfig | false | undefined): void {
  if (rl === false || rl === undefined) return;
  for (const w of ['minute', 'hour', 'day'] as const) {
    const { limit, windowMs } = rl[w] ?? {};
    if (!Number.isInteger(limit) || (limit as number) < 0 || !Number.isFinite(windowMs) || (windowMs as number) <= 0) {
      throw new InvalidParamsError(`rateLimits.${w} needs a whole limit >= 0 and a windowMs > 0`);
    }
  }
  if (!Number.isInteger(rl.month?.limit) || rl.month.limit < 0)
    throw new InvalidParamsError('rateLimits.month needs a whole limit >= 0');
}

export class SandboxCore {
  readonly opts: SandboxOptions;
  readonly now: () => number;
  readonly startTime: number;
  /** Whether this sandbox's clock runs at an instant other than the machine's (a pinned world). */
  readonly shiftedClock: boolean;
  readonly seed: number;
  readonly keyring: KeyRing;
  readonly rateLimitHeaders: boolean;
  store!: RecordStore;
  limiter!: RateLimiter;
  faults!: FaultPlan;
  log: RequestLogEntry[] = [];
  healthy = true;
  /** Where the clock of timed arrivals and updates starts. */
  private timedBase = 0;
  private arrivalsDone = 0;
  private addedCount = 0;
  private updatesDone = 0;
  /** Update batches so far (timed and requested): each draws from a stream of its own. */
  private updateBatches = 0;
  /** The world on the calendar (calendar.ts), when asked for; and the instant the store is brought up to. */
  private calendar: Calendar | undefined;
  private calendarAt = 0;

  constructor(opts: SandboxOptions = {}) {
    this.opts = opts;
    const realStart = Date.now();
    const clock = opts.clock;
    this.startTime = opts.startTime ?? (clock ? clock() : realStart);
    const offset = this.startTime - realStart;
    this.now = clock ?? (() => Date.now() + offset);
    // Started off the calendar (--sandbox-now, --start-time, a clock of its own): its Date says nothing of the machine's.
    this.shiftedClock = Math.abs(this.now() - realStart) > 60_000;
    this.seed = opts.seed ?? 1;
    this.keyring = new KeyRing(opts.keys ?? [DEMO_KEYS.all, DEMO_KEYS.limited]);
    this.rateLimitHeaders = opts.rateLimitHeaders ?? false;
    const count = opts.recordCount ?? 1200;
    if (!Number.isInteger(count) || count < 0)
      throw new InvalidParamsError(`recordCount must be a whole number >= 0, got ${count}`);
    if (opts.faults) this.validateFaults(opts.faults);
    checkRateLimits(opts.rateLimits);
    this.reset(true);
  }

  /** Back to the generated data; `initial` keeps the configured faults. */
  reset(initial = false): void {
    const recordCount = this.opts.recordCount ?? 1200;
    this.calendar = this.opts.calendar ? new Calendar(this.seed, recordCount) : undefined;
    this.calendarAt = this.now();
    this.store = new RecordStore(
      this.calendar
        ? this.calendar.dataset(this.calendarAt)
        : generateDataset({ seed: this.seed, recordCount, startTime: this.startTime }),
    );
    const rl = this.opts.rateLimits;
    this.limiter = new RateLimiter({
      config: rl === false || rl === undefined ? DEFAULT_RATE_LIMITS : rl,
      enforce: rl !== false,
      initialMonthlyUsage: this.opts.monthlyUsage ?? 0,
      startedAt: this.now(),
    });
    this.faults = new FaultPlan(initial ? (this.opts.faults ?? {}) : {});
    this.log = [];
    this.healthy = true;
    this.timedBase = initial ? this.startTime : this.now();
    this.arrivalsDone = 0;
    this.addedCount = 0;
    this.updatesDone = 0;
    this.updateBatches = 0;
  }

  logRequest(entry: RequestLogEntry): void {
    this.log.push(entry);
    // Trimmed in chunks, so a full log costs one copy per thousand requests rather than one each.
    if (this.log.length >= MAX_LOG_ENTRIES + 1000) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
  }

  validateFaults(f: unknown): FaultConfig {
    const parsed = FaultConfigSchema.safeParse(f);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new InvalidParamsError(
        `invalid fault config at ${first?.path.join('.') || '(root)'}: ${first?.message ?? 'invalid'}`,
      );
    }
    return parsed.data as FaultConfig;
  }

  setFaults(f: FaultConfig): void {
    this.faults = new FaultPlan(this.validateFaults(f));
  }

  /** Materialises the arrivals and updates due on the sandbox clock since the last call. */
  tick(): void {
    this.followCalendar();
    this.arrive();
    const perMinute = this.opts.updatesPerMinute ?? 0;
    if (perMinute <= 0) return;
    const due = Math.floor(((this.now() - this.timedBase) * perMinute) / 60_000);
    if (due <= this.updatesDone) return;
    this.revise(Math.min(due - this.updatesDone, MAX_UPDATES));
    this.updatesDone = due;
  }

  /** Adds the calendar's records created since the last tick, and its updates that fell due meanwhile. */
  private followCalendar(): void {
    if (!this.calendar) return;
    const now = this.now();
    const { added, revised } = this.calendar.changes(this.calendarAt, now);
    this.calendarAt = Math.max(this.calendarAt, now);
    // A record added through the hooks may hold an id the calendar reaches later: the added one stays.
    this.store.add(added.filter((r) => !this.store.has(r.id)));
    // An update through the hooks may be newer than the calendar's: updated_at never goes back.
    const newer = (r: SpecRecall) =>
      this.store.has(r.id) && timestampMicros(r.updated_at) > (this.store.keyOf(r.id, 'updated_at') ?? 0);
    this.store.replace(revised.filter(newer));
  }

  private arrive(): void {
    const perMinute = this.opts.arrivalsPerMinute ?? 0;
    if (perMinute <= 0) return;
    const now = this.now();
    const due = Math.floor(((now - this.timedBase) * perMinute) / 60_000);
    if (due <= this.arrivalsDone) return;
    const from = Math.max(this.arrivalsDone, due - MAX_ARRIVALS_PER_TICK);
    const added: SpecRecall[] = [];
    let id = this.store.nextId();
    for (let i = from; i < due; i++) {
      const at = this.timedBase + Math.floor(((i + 1) * 60_000) / perMinute);
      added.push(generateArrival(this.seed, i, id++, at));
    }
    this.store.add(added);
    this.arrivalsDone = due;
  }

  /** Gives `count` records of the 24-hour window a new version now; returns the new versions. */
  updateRecords(count: number): SpecRecall[] {
    if (!Number.isInteger(count) || count < 0 || count > MAX_UPDATES) {
      throw new InvalidParamsError(`count must be a whole number from 0 to ${MAX_UPDATES}, got ${count}`);
    }
    this.tick();
    return structuredClone(this.revise(count));
  }

  private revise(count: number): SpecRecall[] {
    const now = this.now();
    const rng = new Rng(mixSeed(this.seed ^ 0x0bda7e, this.updateBatches++));
    const chosen = pickRecords(this.store.publishedSince((now - DAY_MS) * 1000), count, rng);
    const revised = chosen.map((r) => reviseRecord(r, rng, now));
    this.store.replace(revised);
    return revised;
  }

  records(): SpecRecall[] {
    this.tick();
    return structuredClone(this.store.all());
  }

  /** New records published now (or as given); all or nothing. */
  addRecords(input: number | Partial<SpecRecall>[]): SpecRecall[] {
    this.tick();
    const partials: Partial<SpecRecall>[] =
      typeof input === 'number' ? this.countToPartials(input) : Array.isArray(input) ? input : [];
    if (!Array.isArray(input) && typeof input !== 'number')
      throw new InvalidParamsError('addRecords takes a count or an array of records');
    const now = this.now();
    let id = this.store.nextId();
    const made: SpecRecall[] = [];
    for (const [i, partial] of partials.entries()) {
      if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) {
        throw new InvalidParamsError(`records[${i}] must be an object`);
      }
      const src = typeof partial.data_source === 'string' ? [partial.data_source] : undefined;
      const base = generateArrival(this.seed, ADDED_INDEX_BASE + this.addedCount + i, id, now, src);
      const merged = { ...base, ...partial };
      if (partial.id === undefined) id++;
      const parsed = SpecRecallSchema.safeParse(merged);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new InvalidParamsError(`records[${i}].${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
      }
      made.push(parsed.data);
      if (parsed.data.id >= id) id = parsed.data.id + 1;
    }
    try {
      this.store.add(made);
    } catch (err) {
      if (err instanceof RecordRejectedError) throw new InvalidParamsError(err.message);
      throw err;
    }
    this.addedCount += made.length;
    return structuredClone(made);
  }

  private countToPartials(n: number): Partial<SpecRecall>[] {
    if (!Number.isInteger(n) || n < 0 || n > 100_000)
      throw new InvalidParamsError(`count must be a whole number from 0 to 100000, got ${n}`);
    return Array.from({ length: n }, () => ({}));
  }
}
