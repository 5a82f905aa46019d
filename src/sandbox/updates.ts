// Updates to published recalls, as regulators make them: a newer updated_at and a changed status or severity.
import type { SpecRecall } from '../api/schemas.js';
import { naiveIso } from './data.js';
import { timestampMicros } from '../api/timestamps.js';
import type { Rng } from './rng.js';

const SEVERITIES = ['low', 'medium', 'high', 'serious'];

/**
 * The next version of a record: alert_status becomes "updated", risk_severity moves to another value,
 * updated_at becomes now (at least a second after the previous one, so every version is newer).
 * Field order is kept.
 */
export function reviseRecord(record: SpecRecall, rng: Rng, nowMs: number): SpecRecall {
  const previous = Math.floor(timestampMicros(record.updated_at) / 1000);
  const at = Math.max(Math.floor(nowMs / 1000) * 1000, (Number.isNaN(previous) ? 0 : previous) + 1000);
  return {
    ...record,
    alert_status: 'updated',
    risk_severity: rng.pick(SEVERITIES.filter((s) => s !== record.risk_severity)),
    updated_at: naiveIso(at),
  };
}

/** Up to `count` distinct records, drawn from `candidates` with `rng`, in candidate order. */
export function pickRecords(candidates: readonly SpecRecall[], count: number, rng: Rng): SpecRecall[] {
  const pool = [...candidates];
  const n = Math.min(count, pool.length);
  // A partial Fisher-Yates shuffle: the first n slots end up a uniform sample.
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng.next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as SpecRecall, pool[i] as SpecRecall];
  }
  return pool.slice(0, n).sort((a, b) => a.id - b.id);
}
