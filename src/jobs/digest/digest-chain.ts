// `digest --since last`: each digest's period starts where the last one of the same selection ended, as recorded in
// the archive's archive_meta once that digest was delivered; a digest running claims its period first, so that two at
// once never both list (or both leave out) the same recalls.
import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { endAfterNow } from '../../archive/store.js';
import type { ArchiveStore } from '../../archive/store.js';
import { fold } from '../../filters/normalize.js';
import { FILTER_FIELDS, type FilterName, type RecordFilter } from '../../filters/record-filter.js';
import { writing } from '../../runtime/archive/archive-file.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { Context } from '../../runtime/context.js';
import { running } from '../../runtime/process-running.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';

/** The period a chain's first digest covers: the default --since. */
const FIRST_PERIOD_MS = 24 * 3_600_000;
/**
 * How long a claim holds off another digest of the same selection: longer than a digest takes (at most 5 minutes
 * waiting for a sync's page, then the deliveries' attempts); a digest killed before it could say how it ended (SIGKILL,
 * a power cut, an interrupt) holds up the next one no longer than this.
 */
export const CLAIM_MS = 20 * 60_000;
/** Between two looks at a claim another digest holds. */
const WAIT_STEP_MS = 5000;

/** What `--since last` needs from the plan: the chain's key, the selection it stands for, and --until. */
export interface ChainPlan {
  key: string;
  selection: Record<string, unknown>;
  /** --until, ms; undefined: the period ends now (endAfterNow) when the claim is taken. */
  untilMs: number | undefined;
}

/**
 * The selection a chain is kept for (the sources and the record filters, folded and sorted as they compare, and the
 * catalogue's file: each team's products digest on a chain of its own), and its key.
 */
export function chainFor(
  sources: readonly string[] | undefined,
  filter: RecordFilter,
  untilMs: number | undefined,
  catalog?: string,
): ChainPlan {
  const selection: Record<string, unknown> = {};
  if (catalog !== undefined) selection.catalog = path.resolve(catalog);
  if (sources !== undefined) selection.sources = [...new Set(sources)].sort();
  for (const name of Object.keys(FILTER_FIELDS) as FilterName[]) {
    const value = filter[name];
    if (value === undefined) continue;
    selection[name] = Array.isArray(value) ? [...new Set(value.map(fold))].sort() : fold(value);
  }
  const hash = createHash('sha256').update(JSON.stringify(selection)).digest('hex').slice(0, 32);
  return { key: `digest_since_last:${hash}`, selection, untilMs };
}

/** A digest of the chain that has claimed its period and not said yet how it ended. */
interface Running {
  id: string;
  from: string;
  to: string;
  started: string;
  /** Until when the claim holds: after it, another digest takes the period over. */
  until: string;
  /** The process that claimed it: on this host and no longer running (Ctrl-C, killed), its claim holds nothing. */
  host?: string;
  pid?: number;
}

/** Whether the claim's process is known to have ended: it ran on this host, and no process has its id any more. */
function claimantGone(claim: Running): boolean {
  const { host, pid } = claim;
  if (host !== os.hostname() || !Number.isSafeInteger(pid) || (pid as number) <= 0 || pid === process.pid) return false;
  return !running(pid as number);
}

/** The value under the chain's key: the selection (for a person reading the table), the last end, a running digest. */
interface ChainValue {
  selection: Record<string, unknown>;
  end?: string;
  running?: Running;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The stored value; one that does not parse (edited by hand) counts as no chain yet. */
function readValue(raw: string | undefined): Partial<ChainValue> {
  if (raw === undefined) return {};
  try {
    const value = JSON.parse(raw) as Partial<ChainValue> | null;
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function write(chain: ChainPlan, end: string | undefined, running?: Running): string {
  const value: ChainValue = {
    selection: chain.selection,
    ...(end !== undefined && { end }),
    ...(running && { running }),
  };
  return JSON.stringify(value);
}

/** The period a digest claimed: [fromMs, toMs), and its claim's id. */
export interface Claim {
  fromMs: number;
  toMs: number;
  id: string;
}

type Look =
  | { kind: 'claimed'; claim: Claim; first: boolean; tookOver: Running | undefined }
  | { kind: 'busy'; running: Running }
  | { kind: 'empty'; fromMs: number; toMs: number; first: boolean };

/**
 * Claims the period from the chain's last end (24 hours back when none is recorded, said once on stderr) to --until or
 * now, under the archive's write lock. While another digest of the selection holds its claim, waits for it to say how
 * it ended: delivered, this period starts at its end; failed, at the same start as its own.
 */
export async function claimPeriod(
  store: ArchiveStore,
  chain: ChainPlan,
  ctx: Context,
  status: StatusReporter,
): Promise<Claim> {
  let waitSaid = false;
  for (;;) {
    const now = ctx.now();
    let look: Look | undefined;
    // A write like any other to the archive: a full disk or a read-only file is exit 10, naming it.
    await writing(store.name, () =>
      store.changeMeta(chain.key, (raw) => {
        const value = readValue(raw);
        const running = value.running;
        if (running && Date.parse(running.until) > now && !claimantGone(running)) {
          look = { kind: 'busy', running };
          return undefined;
        }
        const toMs = chain.untilMs ?? endAfterNow(now);
        const end = value.end === undefined ? Number.NaN : Date.parse(value.end);
        const first = Number.isNaN(end);
        const fromMs = first ? now - FIRST_PERIOD_MS : end;
        if (fromMs >= toMs) {
          look = { kind: 'empty', fromMs, toMs, first };
          return undefined;
        }
        const id = randomUUID();
        look = { kind: 'claimed', claim: { fromMs, toMs, id }, first, tookOver: running };
        const claim: Running = {
          ...{ id, from: iso(fromMs), to: iso(toMs), started: iso(now), until: iso(now + CLAIM_MS) },
          ...{ host: os.hostname(), pid: process.pid },
        };
        return write(chain, first ? undefined : iso(end), claim);
      }),
    );
    if (look === undefined) throw new Error('archive_meta: the chain was not read');
    if (look.kind === 'claimed') {
      if (look.first)
        status.note(
          '--since last: no earlier digest of this selection recorded where it ended in this archive: this one covers the last 24 hours',
        );
      if (look.tookOver)
        status.warn(
          `--since last: a digest of this selection that started at ${look.tookOver.started} never said how it ended (interrupted or killed); this one covers its period`,
        );
      return look.claim;
    }
    if (look.kind === 'empty') {
      const start = look.first
        ? `with no earlier digest of this selection recorded, the period starts 24 hours back, at ${iso(look.fromMs)}`
        : `the last digest of this selection ended at ${iso(look.fromMs)}`;
      const end = chain.untilMs === undefined ? 'now' : `--until ${iso(look.toMs)}`;
      throw new UsageError(
        `--since last: ${start}, not before ${end}: the period would be empty`,
        chain.untilMs === undefined ? "check this host's clock" : 'give a later --until, or leave it out',
      );
    }
    if (!waitSaid)
      status.note(
        `--since last: another digest of this selection has been running since ${look.running.started}: waiting for it (at most until ${look.running.until})`,
      );
    waitSaid = true;
    await ctx.sleep(WAIT_STEP_MS, ctx.signal);
  }
}

/**
 * Records the claimed period's end as the chain's, once the digest was delivered and written: `endMs`, the period's end,
 * or, when the digest read before every write of its period had committed, the archive's clock it last read (what was
 * stored later is in the next digest, never in none). Undefined: the chain's end stays where it was.
 */
export async function recordEnd(
  store: ArchiveStore,
  chain: ChainPlan,
  claim: Claim,
  endMs: number | undefined,
  status: StatusReporter,
): Promise<void> {
  let ours = true;
  await settle(store, chain.key, (raw) => {
    const value = readValue(raw);
    if (value.running?.id !== claim.id) {
      ours = false;
      return undefined;
    }
    return write(chain, endMs === undefined ? value.end : iso(endMs));
  });
  if (!ours)
    status.warn(
      `--since last: this digest took longer than its claim (${CLAIM_MS / 60_000} minutes) and another digest of this selection took its period over: the recalls stored from ${iso(claim.fromMs)} on may be in both`,
    );
  else if (endMs !== undefined && endMs < claim.toMs)
    status.warn(
      `--since last: the archive was still being written when this digest read it: the next digest starts at ${iso(endMs)}, so some recalls of this one may be listed again there`,
    );
  else if (endMs === undefined)
    status.warn(
      '--since last: the archive was still being written when this digest read it: the next digest covers this period again',
    );
}

/**
 * Gives the claim up after a failure or a stop (which does not cut this write's wait for the lock): the chain's end
 * stays, and the next digest covers the period again at once, without waiting for the claim to lapse.
 */
export async function releaseClaim(store: ArchiveStore, chain: ChainPlan, claim: Claim): Promise<void> {
  await settle(store, chain.key, (raw) => {
    const value = readValue(raw);
    return value.running?.id === claim.id ? write(chain, value.end) : undefined;
  });
}

/** A change recording how a digest ended ('settle': a stop does not cut its wait), failing as any archive write. */
function settle(
  store: ArchiveStore,
  key: string,
  change: (raw: string | undefined) => string | undefined,
): Promise<string | undefined> {
  return writing(store.name, () => store.changeMeta(key, change, 'settle'));
}
