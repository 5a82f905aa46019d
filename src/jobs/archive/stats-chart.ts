// Turns counts into chart series for a terminal: the top values of a field, or a gap-free histogram by day or hour.
import { groupDigits } from '../../output/numbers.js';
import type { StatsField } from '../../archive/stats-fields.js';
import type { ValueCount } from '../../archive/store.js';
import type { ChartRow, ChartSeries } from '../../output/bar-chart.js';
import { escapeUnseen } from '../../output/control-escapes.js';
import { cleanForTerminal } from '../../output/terminal-cells.js';

/** Values shown per field on a terminal; -f csv and -f json list them all. */
const TOP_VALUES = 15;
/** Time buckets shown on a terminal: the latest ones. */
const MAX_BUCKETS = 60;

const STEP_MS = { day: 86_400_000, hour: 3_600_000 } as const;

/**
 * A value as its row's label, never the same as another value's: a terminal drops invisible characters, so a text it
 * would show otherwise (`serious\u200b`), or one that could pass for such a label, `(none)` or empty, is quoted with
 * those characters escaped (`"serious\u200b"`).
 */
function labelOf(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value !== 'string') return JSON.stringify(value);
  if (cleanForTerminal(value) === value && !value.startsWith('"') && value !== '(none)' && value !== '') return value;
  return escapeUnseen(JSON.stringify(value));
}

function valueSeries(field: StatsField, counts: readonly ValueCount[]): ChartSeries {
  const rows = counts.slice(0, TOP_VALUES).map((c) => ({ label: labelOf(c.value), count: c.count }));
  const rest = counts.length - rows.length;
  const note = rest > 0 ? `… ${groupDigits(rest)} more values (-f csv lists all)` : undefined;
  return { title: field, rows, note };
}

/** Buckets in time order, with the empty ones between the first and the last as zero. */
function timeSeries(field: 'day' | 'hour', counts: readonly ValueCount[]): ChartSeries {
  const step = STEP_MS[field];
  const start = (v: string) => Date.parse(field === 'day' ? `${v}T00:00:00Z` : `${v}:00Z`);
  // `2026-01-15 11h`: short enough for a 40-column terminal.
  const name = (ms: number) => {
    const iso = new Date(ms).toISOString();
    return field === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 13)}h`;
  };
  // One pass: the buckets by their start, and the count of recalls without a readable date.
  const byStart = new Map<number, number>();
  let undated = 0;
  for (const c of counts) {
    const at = typeof c.value === 'string' ? start(c.value) : Number.NaN;
    if (Number.isNaN(at)) undated += c.count;
    else byStart.set(at, c.count);
  }
  const rows: ChartRow[] = [];
  let hidden = 0;
  if (byStart.size > 0) {
    const last = Math.max(...byStart.keys());
    const first = Math.max(Math.min(...byStart.keys()), last - (MAX_BUCKETS - 1) * step);
    for (let t = first; t <= last; t += step) rows.push({ label: name(t), count: byStart.get(t) ?? 0 });
    for (const [t, count] of byStart) if (t < first) hidden += count;
  }
  const notes: string[] = [];
  if (hidden > 0) notes.push(`${groupDigits(hidden)} earlier recalls not shown (-f csv lists every ${field})`);
  if (undated > 0) notes.push(`${groupDigits(undated)} without a publication date`);
  return { title: `${field} (published, UTC)`, rows, note: notes.length ? notes.join('; ') : undefined };
}

export function chartSeries(field: StatsField, counts: readonly ValueCount[]): ChartSeries {
  if (field === 'day' || field === 'hour') return timeSeries(field, counts);
  return valueSeries(field, counts);
}
