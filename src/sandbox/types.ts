// Public types of the sandbox: its options, the handle startSandbox returns, and request-log entries.
import type { SOURCE_IDS, SpecRecall } from '../api/schemas.js';

export type SourceId = (typeof SOURCE_IDS)[number];
import type { FaultConfig } from './faults.js';
import type { SandboxKey } from './demo-keys.js';
import type { RateLimitConfig } from './limiter.js';

export interface SandboxOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Data seed, default 1. */
  seed?: number;
  /** Records published inside the last 24 h, default 1200 (plus about 5 % older than 24 h). */
  recordCount?: number;
  /** Epoch ms the data is generated relative to; default the clock's now. The sandbox clock starts here. */
  startTime?: number;
  /**
   * Records on the calendar (calendar.ts): the same seed gives the same recall under an id in every run,
   * whenever it starts; recordCount arrive a day, and some are updated once. Off: generated relative to
   * startTime (data.ts). The CLI's --sandbox and `recall-feed sandbox` (without --start-time or --arrivals) use it.
   */
  calendar?: boolean;
  /** Full override of the sandbox clock (unit tests). */
  clock?: () => number;
  /** Default [DEMO_KEYS.all, DEMO_KEYS.limited]. */
  keys?: SandboxKey[];
  /** Default the spec's 60/60 s, 1000/1 h, 10000/24 h, 50000/month; false counts but never refuses. */
  rateLimits?: RateLimitConfig | false;
  /** Usage already spent this month, per key, at start. */
  monthlyUsage?: number;
  /** New records per minute of sandbox time, published at their arrival time; default 0. */
  arrivalsPerMinute?: number;
  /** Records of the window given a new version (newer updated_at, changed status and severity) per minute; default 0. */
  updatesPerMinute?: number;
  faults?: FaultConfig;
  /** Send X-RateLimit-{Limit,Remaining,Reset}-{Minute,Hour,Day} on every keyed /v1 answer, Retry-After on 429. */
  rateLimitHeaders?: boolean;
}

export interface RequestLogEntry {
  /** Sandbox-clock time of arrival, ISO 8601 UTC. */
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** The key's name, or 'missing' / 'invalid'; never the key itself. */
  key: string;
  fault?: string;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  url: string;
  keys: SandboxKey[];
  /** API requests (everything except /_sandbox hooks), oldest first; the newest 50 000 are kept. */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  /** Every stored record, including those older than 24 h, sorted by id (copies). */
  records(): SpecRecall[];
  /** Adds records published now unless given; returns them as stored. Throws InvalidParamsError on bad input. */
  addRecords(input: number | Partial<SpecRecall>[]): SpecRecall[];
  /** Gives `count` records of the 24-hour window a new version now; returns the new versions. */
  updateRecords(count: number): SpecRecall[];
  /** Replaces the fault config and its counters. Throws InvalidParamsError on bad input. */
  setFaults(f: FaultConfig): void;
  setHealthy(healthy: boolean): void;
  /** Back to the generated data, no faults, healthy, empty log, fresh rate windows. */
  reset(): void;
  /** Closes the server and every open socket. */
  close(): Promise<void>;
}
