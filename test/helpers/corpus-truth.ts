// What every real-notice corpus's truth.csv and raw files must hold, checked the same way for each corpus.
import { readFileSync } from 'node:fs';
import path from 'node:path';
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

/**
 * Each raw file of a corpus (`dir/raw/<file>`, `{source, records}`) under 1 MiB, from a named public repository under a
 * stated licence, and the corpus README naming the file, its repository, its path when it gives one, and every commit
 * its records were read at. Returns the files' records, by file.
 */
export function expectRawFilesDocumented(
  dir: string,
  files: readonly string[],
  readme: string,
): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  for (const file of files) {
    const bytes = readFileSync(path.join(dir, 'raw', file));
    expect(bytes.length, file).toBeLessThan(1024 * 1024);
    const raw = JSON.parse(bytes.toString('utf8')) as {
      source: Record<string, unknown>;
      records: Record<string, unknown>[];
    };
    const { source } = raw;
    expect(String(source.repository)).toMatch(/^[\w.-]+\/[\w.-]+$/);
    expect(String(source.licence).length).toBeGreaterThan(10);
    expect(readme).toContain(file);
    expect(readme).toContain(String(source.repository));
    if (source.path !== undefined) expect(readme).toContain(String(source.path));
    for (const r of raw.records) {
      const commit = String(r._commit ?? source.commit);
      expect(commit).toMatch(/^[0-9a-f]{40}$/);
      expect(readme).toContain(commit);
    }
    out.set(file, raw.records);
  }
  return out;
}
