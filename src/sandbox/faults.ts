// Fault injection: which /v1 requests fail and how, drawn from a seeded sequence so runs repeat.
import { z } from 'zod';
import { Rng } from './rng.js';

export interface FaultConfig {
  /** Shares (0..1) of /v1 requests that get each fault; they are drawn from one roll, in this order. */
  error500?: number;
  error503?: number;
  html502?: number;
  /** Socket destroyed after the headers and part of the body. */
  cut?: number;
  /** 200 whose JSON is cut short, with a Content-Length matching the short body. */
  truncate?: number;
  slow?: number;
  /** Delay of a slow response, default 1500 ms. */
  slowMs?: number;
  /** Headers and part of the body, then a pause of stallMs (default 10000) before the rest. */
  stall?: number;
  stallMs?: number;
  /** Starts a burst: this request and the next burstLength - 1 (default 3 in all) get 429 (minute). */
  burst429?: number;
  burstLength?: number;
  /** After this many successful feed pages every /v1 request fails with failMode (default error503). */
  failAfterPages?: number;
  failMode?: 'error503' | 'error500' | 'cut';
  /** Seed of the fault sequence, default 1. */
  seed?: number;
}

export type FaultKind = 'error500' | 'error503' | 'html502' | 'cut' | 'truncate' | 'slow' | 'stall' | 'burst429';

/** The roll order of the random faults. */
export const RANDOM_FAULTS = [
  'error500',
  'error503',
  'html502',
  'cut',
  'truncate',
  'slow',
  'stall',
  'burst429',
] as const;

const share = z.number().min(0).max(1);
const ms = z.number().int().min(0).max(600_000);

export const FaultConfigSchema = z.strictObject({
  error500: share.optional(),
  error503: share.optional(),
  html502: share.optional(),
  cut: share.optional(),
  truncate: share.optional(),
  slow: share.optional(),
  slowMs: ms.optional(),
  stall: share.optional(),
  stallMs: ms.optional(),
  burst429: share.optional(),
  burstLength: z.number().int().min(1).max(1000).optional(),
  failAfterPages: z.number().int().min(0).optional(),
  failMode: z.enum(['error503', 'error500', 'cut']).optional(),
  seed: z.number().int().optional(),
});

export interface FaultDecision {
  kind: FaultKind;
  /** What the request log records: the kind, or `fail_after_pages:<mode>`. */
  label: string;
}

export class FaultPlan {
  readonly config: FaultConfig;
  private readonly random: () => number;
  private burstLeft = 0;
  private pagesServed = 0;

  /** `random` replaces the seeded sequence (unit tests). */
  constructor(config: FaultConfig = {}, random?: () => number) {
    this.config = { ...config };
    const rng = new Rng(config.seed ?? 1);
    this.random = random ?? (() => rng.next());
  }

  get slowMs(): number {
    return this.config.slowMs ?? 1500;
  }

  get stallMs(): number {
    return this.config.stallMs ?? 10_000;
  }

  /** One decision per /v1 request that got past auth, routing, validation and the rate limiter. */
  decide(): FaultDecision | undefined {
    const c = this.config;
    if (c.failAfterPages !== undefined && this.pagesServed >= c.failAfterPages) {
      const kind = c.failMode ?? 'error503';
      return { kind, label: `fail_after_pages:${kind}` };
    }
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'burst429', label: 'burst429' };
    }
    let u = this.random();
    for (const kind of RANDOM_FAULTS) {
      const p = c[kind] ?? 0;
      if (u < p) {
        if (kind === 'burst429') this.burstLeft = (c.burstLength ?? 3) - 1;
        return { kind, label: kind };
      }
      u -= p;
    }
    return undefined;
  }

  /** A feed page reached the client whole (no fault, or only a delay). */
  pageServed(): void {
    this.pagesServed++;
  }
}
