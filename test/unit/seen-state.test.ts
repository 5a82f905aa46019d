import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { KEEP_MS, publishedMs, SeenState, StateFileError } from '../../src/cli/feed/seen-state.js';

const dir = () => tempDir('rf-state-');

describe('SeenState', () => {
  it('saves atomically with mode 0600 and loads what it saved', async () => {
    const file = path.join(dir(), 'seen.json');
    const s = await SeenState.load(file);
    expect(s.size).toBe(0);
    s.add(1, Date.parse('2026-01-01T10:00:00Z'));
    s.add('x-2', Date.parse('2026-01-01T11:00:00Z'));
    await s.save();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, seen: { '1': 1767261600, 'x-2': 1767265200 } });
    // Nothing changed: no write at all (a poll that found nothing new costs no I/O).
    writeFileSync(file, 'untouched');
    await s.save();
    expect(readFileSync(file, 'utf8')).toBe('untouched');
    s.add(1, Date.parse('2026-01-01T10:00:00Z'));
    await s.save();
    const again = await SeenState.load(file);
    expect(again.has(1)).toBe(true);
    expect(again.has('1')).toBe(true);
    expect(again.has('x-2')).toBe(true);
    expect(again.has(3)).toBe(false);
  });

  it('prunes ids that no window can return again', () => {
    const s = SeenState.memory();
    const now = Date.parse('2026-01-02T12:00:00Z');
    s.add(1, now - KEEP_MS - 1);
    s.add(2, now - KEEP_MS + 1);
    s.add(3, now);
    s.prune(now);
    expect([s.has(1), s.has(2), s.has(3)]).toEqual([false, true, true]);
  });

  it('refuses a file it did not write, and leaves it alone', async () => {
    for (const body of ['{"seen":{}}', 'not json', '[]', '{"version":2,"seen":{}}']) {
      const file = path.join(dir(), 'seen.json');
      writeFileSync(file, body);
      await expect(SeenState.load(file)).rejects.toBeInstanceOf(StateFileError);
      expect(readFileSync(file, 'utf8')).toBe(body);
    }
  });

  it('reads naive timestamps as UTC', () => {
    expect(publishedMs({ published_at: '2025-12-11T00:00:00' }, 0)).toBe(Date.parse('2025-12-11T00:00:00Z'));
    expect(publishedMs({ published_at: '2025-12-11T01:00:00+01:00' }, 0)).toBe(Date.parse('2025-12-11T00:00:00Z'));
    expect(publishedMs({}, 42)).toBe(42);
  });
});
