// What every real-notice corpus's truth.csv must hold, checked the same way for each corpus.
import { expect } from 'vitest';

/** One truth row per catalogue row (skus unique), naming only recalls of the corpus, with a scope and a reason. */
export function expectTruthOfRows(
  skus: readonly string[],
  truth: ReadonlyMap<string, { ids: ReadonlySet<number>; scope: string; why: string }>,
  recallIds: ReadonlySet<number>,
): void {
  expect(new Set(skus).size).toBe(skus.length);
  expect([...truth.keys()].sort()).toEqual([...skus].sort());
  for (const [sku, t] of truth) {
    for (const id of t.ids) expect(recallIds.has(id), `${sku} names recall ${id}`).toBe(true);
    if (t.ids.size === 0) expect(t.scope, sku).toBe('-');
    else expect(['in-scope', 'out-of-scope', 'unknown'], sku).toContain(t.scope);
    expect(t.why.length, sku).toBeGreaterThan(5);
  }
}
