// The digest of a period as its JSON contract (docs/digest.md), what every digest renderer reads, and the sentences every format says about it.
import type { MonitoringView } from '../archive-views.js';
import { plainLine } from '../control-escapes.js';
import { counted, groupDigits } from '../numbers.js';
import { shortDate } from '../recall-text.js';
import { worstSeverity } from '../severity-order.js';
import { type Deadlines, deadlinesPhrase } from './deadline-text.js';
import { type ProductCounts, type ProductRow, productsLine, productsPhrase } from './product-text.js';

export interface ValueCount {
  value: string;
  count: number;
}

/** docs/digest.md describes every field; records are as the API last sent them. */
export interface Digest {
  period: { from: string; to: string };
  /** Open and waiting cases overdue or due soon, from the whole archive (not only the period's recalls). */
  deadlines: Deadlines;
  /** The catalogue rows the period's recalls touch, in reading order; null without --catalog. */
  products: ProductRow[] | null;
  recalls: { new: Record<string, unknown>[]; updated: Record<string, unknown>[] };
  counts: {
    new: number;
    updated: number;
    by_severity: ValueCount[];
    by_source: ValueCount[];
    /** Your products, counted once for every format; null without --catalog. */
    products: ProductCounts | null;
  };
  /** Match rows as `match` writes them; null without --catalog (the digest then says nothing about products). */
  matches: Record<string, unknown>[] | null;
  health: MonitoringView & { sources_checked: boolean; writes_settled: boolean };
}

const DAY_MS = 86_400_000;
/** A period ending less than this far into a day it began before is dated by the day before, which holds nearly all of it. */
const DAY_EDGE_MS = 3_600_000;

/**
 * The instant the digest is dated by (ms): the period's last one (its end is exclusive, so a period that ends at 00:00
 * UTC is the day before's), except that a period reaching less than an hour into its last day from an earlier one (a
 * digest run at midnight, its default period ending a moment past it) is the day before's too.
 */
export function periodLastMs(d: Digest): number {
  const last = Date.parse(d.period.to) - 1;
  const dayStart = Math.floor(last / DAY_MS) * DAY_MS;
  return last - dayStart < DAY_EDGE_MS && Date.parse(d.period.from) < dayStart ? dayStart - 1 : last;
}

/**
 * `Recalls 24 Nov: 37 new (5 serious) · monitoring complete`, dated by the period's last instant (UTC); with a catalogue, your products first:
 * `Recalls 24 Nov: 3 of your products match (1 serious) · 1,236 new · monitoring complete`; cases overdue or due
 * soon before all: `Recalls 24 Nov: 2 cases overdue, 1 due soon · …`. "no new recalls"
 * only when monitoring was complete.
 */
export function digestSubject(d: Digest): string {
  const date = shortDate(periodLastMs(d));
  const worst = worstSeverity(d.recalls.new);
  const n = d.counts.new;
  const what =
    n === 0
      ? d.health.complete
        ? 'no new recalls'
        : '0 new found'
      : `${groupDigits(n)} new${worst && d.counts.products === null ? ` (${worst.count} ${worst.severity})` : ''}`;
  const products = d.counts.products === null ? '' : `${productsPhrase(d.counts.products)} · `;
  const due = deadlinesPhrase(d.deadlines);
  return `Recalls ${date}: ${due ? `${due} · ` : ''}${products}${what} · monitoring ${d.health.complete ? 'complete' : 'INCOMPLETE'}`;
}

/** Hours with two decimals, as the gaps give them. */
const hoursText = (h: number) => String(Math.round(h * 100) / 100);

/**
 * What monitoring did in the period, plainly; when incomplete, each thing that is missing. Never an all-clear.
 * `gapsShown` bounds the gap lines (chat and e-mail): the count, the hours in all and the first few.
 */
export function healthLines(d: Digest, opts: { gapsShown?: number } = {}): string[] {
  const h = d.health;
  const runs = `${counted(h.runs.ok, 'successful sync', 'successful syncs')}, ${h.runs.failed} failed, ${h.runs.interrupted} interrupted`;
  const last = `last successful sync: ${h.last_ok_sync ?? 'none'}`;
  if (h.complete) {
    return [`Monitoring complete: ${runs}; no gap; every source the key may use was synced.`, last];
  }
  const lines = ['Monitoring INCOMPLETE: recalls may be missing from this summary.'];
  if (h.runs.ok === 0) lines.push('No sync succeeded in this period.');
  if (h.runs.failed > 0) lines.push(`${counted(h.runs.failed, 'sync', 'syncs')} failed.`);
  if (h.runs.interrupted > 0) lines.push(`${counted(h.runs.interrupted, 'sync was', 'syncs were')} interrupted.`);
  const shown = opts.gapsShown === undefined ? h.gaps : h.gaps.slice(0, opts.gapsShown);
  if (shown.length < h.gaps.length) {
    const hours = hoursText(h.gaps.reduce((sum, g) => sum + g.hours, 0));
    lines.push(`Not fetched: ${h.gaps.length} stretches, ${hours} h in all; the first ${shown.length}:`);
  }
  for (const g of shown) lines.push(`Not fetched: recalls published ${g.from} to ${g.to} (${g.hours} h).`);
  // The API's own source ids: text a server chose, so no control code of theirs reaches a terminal or a message.
  if (h.sources_missing.length > 0)
    lines.push(`Sources no successful sync covered: ${h.sources_missing.map(plainLine).join(', ')}.`);
  if (!h.sources_checked) lines.push('The sources this key may use could not be checked.');
  if (!h.writes_settled)
    lines.push('A sync was still storing recalls when this digest read the archive: some may be missing here.');
  lines.push(`Runs: ${runs}.`, `${last[0]!.toUpperCase()}${last.slice(1)}.`);
  return lines;
}

/** The sentence about the recalls themselves. */
export function recallsLine(d: Digest): string {
  const { new: n, updated: u } = d.counts;
  if (n === 0 && u === 0) {
    return d.health.complete
      ? 'No new recalls in this period.'
      : 'The archive holds no recall stored in this period; as monitoring was incomplete, recalls may have been missed.';
  }
  return `${counted(n, 'new recall', 'new recalls')} and ${counted(u, 'updated recall', 'updated recalls')}, serious and high first.`;
}

/** The catalogue's part; undefined without a catalogue (nothing is said about products then). */
export function matchesLine(d: Digest): string | undefined {
  return d.counts.products === null ? undefined : productsLine(d.counts.products);
}
