// The temporary and sidecar files a run writes are made afresh: a symbolic or hard link planted at the name is removed,
// never written through, and what it pointed to stays as it was.
import { linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileSynced } from '../../src/runtime/files/atomic-write.js';
import { tempDir } from '../helpers/temp-dir.js';

const PRECIOUS = 'IMPORTANT DATA\n';

function setUp() {
  const dir = tempDir('rf-fresh-');
  const precious = path.join(dir, 'precious.txt');
  writeFileSync(precious, PRECIOUS, { mode: 0o600 });
  return { dir, precious };
}

describe('writeFileSynced', () => {
  it.each([
    ['a symbolic link', symlinkSync],
    ['a hard link', linkSync],
  ])('%s planted at the name is replaced by a new file; its target keeps its bytes', async (_what, link) => {
    const { dir, precious } = setUp();
    const at = path.join(dir, 'x.appending.json');
    link(precious, at);
    await writeFileSynced(at, '{"new":true}\n');
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    expect(statSync(precious).nlink).toBe(1);
    expect(lstatSync(at).isFile()).toBe(true);
    expect(readFileSync(at, 'utf8')).toBe('{"new":true}\n');
    expect(statSync(at).mode & 0o777).toBe(0o600);
  });

  it('a dangling link planted at the name: the file it names is not created', async () => {
    const { dir } = setUp();
    const at = path.join(dir, 'x.lock.json');
    const elsewhere = path.join(dir, 'made-through-the-link');
    symlinkSync(elsewhere, at);
    await writeFileSynced(at, 'note\n');
    expect(readdirSync(dir).sort()).toEqual(['precious.txt', 'x.lock.json']);
    expect(lstatSync(at).isFile()).toBe(true);
  });
});

describe('writeFileAtomic', () => {
  it('a link planted at each temporary name this process could pick is never written through', async () => {
    const { dir, precious } = setUp();
    const file = path.join(dir, 'notes.json');
    // The names are `.<name>.<pid>.<n>.tmp`, n counting this process's replacements: the next few are planted.
    for (let n = 1; n <= 2000; n++) symlinkSync(precious, path.join(dir, `.notes.json.${process.pid}.${n}.tmp`));
    await writeFileAtomic(file, 'kept\n', 0o644);
    // One of the planted names was the one picked (it is gone), so the test tested something.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1999);
    expect(readFileSync(precious, 'utf8')).toBe(PRECIOUS);
    expect(statSync(precious).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });
});
