// Sandbox updates: new versions of records in the window, on request and on the sandbox clock.
import { describe, expect, it } from 'vitest';
import { SpecRecallSchema, type SpecRecall } from '../../src/api/schemas.js';
import { SandboxCore } from '../../src/sandbox/core.js';

const START = Date.parse('2026-03-10T08:00:00Z');
const DAY = 86_400_000;
const utc = (iso: string) => Date.parse(`${iso}Z`);
const byId = (list: SpecRecall[]) => new Map(list.map((r) => [r.id, r]));

describe('updateRecords', () => {
  it('gives records of the window a newer updated_at, status "updated" and another severity, keeping the rest', () => {
    let now = START;
    const core = new SandboxCore({ seed: 4, recordCount: 300, clock: () => now });
    const before = byId(core.records());
    now += 90_000;
    const updated = core.updateRecords(25);
    expect(new Set(updated.map((r) => r.id)).size).toBe(25);
    for (const r of updated) {
      const old = before.get(r.id)!;
      expect(SpecRecallSchema.safeParse(r).success).toBe(true);
      expect(utc(old.published_at)).toBeGreaterThanOrEqual(now - DAY);
      expect(utc(r.updated_at)).toBeGreaterThan(utc(old.updated_at));
      expect(utc(r.updated_at)).toBeLessThanOrEqual(now);
      expect(r.alert_status).toBe('updated');
      expect(r.risk_severity).not.toBe(old.risk_severity);
      expect(Object.keys(r)).toEqual(Object.keys(old));
      const { updated_at: _u, alert_status: _a, risk_severity: _s, ...rest } = r;
      const { updated_at: _u2, alert_status: _a2, risk_severity: _s2, ...oldRest } = old;
      expect(rest).toEqual(oldRest);
    }
    // The store holds the new versions; the others are untouched.
    const after = byId(core.records());
    for (const [id, r] of after) expect(r).toEqual(updated.find((u) => u.id === id) ?? before.get(id));
  });

  it('makes each version newer than the last, even on a frozen clock', () => {
    const core = new SandboxCore({ seed: 4, recordCount: 3, clock: () => START });
    const first = core.updateRecords(3);
    const second = core.updateRecords(3);
    for (const r of second)
      expect(utc(r.updated_at)).toBeGreaterThan(utc(first.find((f) => f.id === r.id)!.updated_at));
  });

  it('never touches records older than 24 hours, and caps the count at the window', () => {
    let now = START;
    const core = new SandboxCore({ seed: 4, recordCount: 20, clock: () => now });
    const all = core.records();
    // Half a day later, the older records have left the window: only the others may be updated.
    now += DAY / 2;
    const inWindow = all.filter((r) => utc(r.published_at) >= now - DAY).map((r) => r.id);
    expect(inWindow.length).toBeGreaterThan(0);
    expect(inWindow.length).toBeLessThan(all.length);
    const updated = core.updateRecords(1000);
    expect(updated.map((r) => r.id).sort((a, b) => a - b)).toEqual(inWindow.sort((a, b) => a - b));
    expect(() => core.updateRecords(-1)).toThrow(/count must be a whole number/);
    expect(() => core.updateRecords(1.5)).toThrow(/count must be a whole number/);
  });

  it('is deterministic for a seed', () => {
    const a = new SandboxCore({ seed: 9, recordCount: 100, clock: () => START }).updateRecords(10);
    const b = new SandboxCore({ seed: 9, recordCount: 100, clock: () => START }).updateRecords(10);
    expect(a).toEqual(b);
  });
});

describe('updatesPerMinute', () => {
  it('updates records as the sandbox clock runs', () => {
    let now = START;
    const core = new SandboxCore({ seed: 4, recordCount: 500, updatesPerMinute: 6, clock: () => now });
    const before = core.records();
    now += 60_000;
    const changed = core.records().filter((r, i) => r.updated_at !== before[i]!.updated_at);
    expect(changed).toHaveLength(6);
    now += 30_000;
    const later = core.records().filter((r, i) => r.updated_at !== before[i]!.updated_at);
    expect(later.length).toBeGreaterThanOrEqual(6);
    expect(later.length).toBeLessThanOrEqual(9);
  });
});
