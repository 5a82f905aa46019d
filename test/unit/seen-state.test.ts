// The --state file: loaded, checked before any request, staged before the output, put in place after it.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import { KEEP_MS, publishedMs, SeenState, StateFileError } from '../../src/jobs/watch/seen-state.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = () => tempDir('rf-state-');

async function save(s: SeenState): Promise<void> {
  await s.stage();
  await s.commit();
}

describe('SeenState', () => {
  it('saves through a symbolic link into the file it points at, keeping the link', async () => {
    const d = dir();
    const real = path.join(d, 'real.json');
    const link = path.join(d, 'link.json');
    writeFileSync(real, JSON.stringify({ version: 1, seen: {} }));
    symlinkSync(real, link);
    const s = await SeenState.load(link);
    s.add(5, Date.parse('2026-01-01T10:00:00Z'));
    await save(s);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ version: 1, seen: { '5': 1767261600 } });
  });

  it('saves with mode 0600 and loads what it saved', async () => {
    const file = path.join(dir(), 'seen.json');
    const s = await SeenState.load(file);
    expect(s.size).toBe(0);
    s.add(1, Date.parse('2026-01-01T10:00:00Z'));
    s.add('x-2', Date.parse('2026-01-01T11:00:00Z'));
    await save(s);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      seen: { '1': 1767261600, 'x-2': 1767265200 },
    });
    // Nothing changed: no write at all (a poll that found nothing new costs no I/O).
    writeFileSync(file, 'untouched');
    await save(s);
    expect(readFileSync(file, 'utf8')).toBe('untouched');
    s.add(1, Date.parse('2026-01-01T10:00:00Z'));
    await save(s);
    const again = await SeenState.load(file);
    expect(again.has(1)).toBe(true);
    expect(again.has('1')).toBe(true);
    expect(again.has('x-2')).toBe(true);
    expect(again.has(3)).toBe(false);
  });

  it('a staged state is not in place until committed, and unstaging leaves the old one', async () => {
    const folder = dir();
    const file = path.join(folder, 'seen.json');
    const s = await SeenState.load(file);
    s.add(7, Date.parse('2026-01-01T10:00:00Z'));
    await s.stage();
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(folder)).toHaveLength(1);
    await s.unstage();
    expect(readdirSync(folder)).toEqual([]);
    await s.stage();
    await s.commit();
    expect(readdirSync(folder)).toEqual(['seen.json']);
    expect(JSON.parse(readFileSync(file, 'utf8')).seen).toEqual({ '7': 1767261600 });
  });

  it('a state that cannot be written is refused when loaded, naming the path and the reason', async () => {
    const folder = dir();
    const missing = path.join(folder, 'no-such-folder', 'seen.json');
    const err = await SeenState.load(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CannotWriteError);
    expect((err as Error).message).toBe(`cannot write ${missing}: its folder does not exist`);
    expect((err as CannotWriteError).hint).toMatch(/^give --state a file in a folder this user can write to/);
    const asFolder = path.join(folder, 'state-dir');
    mkdirSync(asFolder);
    await expect(SeenState.load(asFolder)).rejects.toThrow(`cannot write ${asFolder}: it is a folder`);
    const underFile = path.join(folder, 'plain-file');
    writeFileSync(underFile, '');
    await expect(SeenState.load(path.join(underFile, 'seen.json'))).rejects.toBeInstanceOf(CannotWriteError);
    const tooLong = path.join(folder, `${'s'.repeat(300)}.json`);
    await expect(SeenState.load(tooLong)).rejects.toThrow(/: the file name is too long$/);
    // A name the file system takes is fine, though its temporary file's would not be: that one is cut short.
    const long = await SeenState.load(path.join(folder, `${'s'.repeat(250)}.json`));
    long.add(1, Date.now());
    await save(long);
    // The checks leave nothing behind.
    expect(readdirSync(folder).sort()).toEqual(['plain-file', `${'s'.repeat(250)}.json`, 'state-dir']);
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
