// What an -o path is (stdout, device, file behind links, folder), sidecar names that fit, and file-system errors in words.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import { partialPath, partialStatePath, sidecarPath } from '../../src/runtime/files/sidecar-names.js';
import { resolveTargetPath } from '../../src/runtime/files/target-path.js';
import { cannotWrite } from '../../src/runtime/files/write-errors.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A temp folder by its real path (the tests compare resolved paths; /tmp may be a link). */
const scratch = () => realpathSync(tempDir('rf-paths-'));

const errno = (code: string) => Object.assign(new Error(`${code}: oops`), { code, syscall: 'open' });

describe('sidecarPath', () => {
  it('appends the suffix while the name fits', () => {
    expect(partialPath('/d/x.csv')).toBe('/d/x.csv.partial');
    expect(partialStatePath('/d/x.csv')).toBe('/d/x.csv.partial.json');
    expect(sidecarPath('/d/x.csv', '.7.tmp', '.')).toBe('/d/.x.csv.7.tmp');
  });

  it('cuts a name that would be too long and puts a hash of the whole name in place: fixed, distinct, 255 bytes at most', () => {
    const a = `/d/${'r'.repeat(241)}a.jsonl`;
    const b = `/d/${'r'.repeat(241)}b.jsonl`;
    const state = partialStatePath(a);
    expect(Buffer.byteLength(path.basename(state))).toBeLessThanOrEqual(255);
    expect(state.endsWith('.partial.json')).toBe(true);
    expect(path.dirname(state)).toBe('/d');
    expect(partialStatePath(a)).toBe(state);
    expect(partialStatePath(b)).not.toBe(state);
  });

  it('never cuts a character in half', () => {
    const name = `/d/${'é'.repeat(125)}.csv`; // 254 bytes
    const out = path.basename(sidecarPath(name, '.partial.json'));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(255);
    expect(out).not.toContain('\uFFFD');
    expect(Buffer.from(out).toString()).toBe(out);
  });
});

describe('resolveTargetPath', () => {
  it('- and our own stdout by name are stdout; other /dev paths and devices are written through', async () => {
    for (const p of ['-', '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'])
      expect(await resolveTargetPath(p)).toEqual({ kind: 'stdout' });
    expect(await resolveTargetPath('/dev/null')).toEqual({ kind: 'direct', path: '/dev/null' });
    expect(await resolveTargetPath('/dev/fd/2')).toEqual({ kind: 'direct', path: '/dev/fd/2' });
  });

  it('follows symlinks, dangling ones and chains included, to where the file really lives', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, 'real'));
    writeFileSync(path.join(dir, 'real', 'a.csv'), 'x');
    symlinkSync(path.join(dir, 'real', 'a.csv'), path.join(dir, 'link1'));
    symlinkSync('link1', path.join(dir, 'link2'));
    symlinkSync('real/new.csv', path.join(dir, 'dangling'));
    const viaChain = await resolveTargetPath(path.join(dir, 'link2'));
    expect(viaChain).toMatchObject({ kind: 'file', path: path.join(dir, 'real', 'a.csv') });
    expect(viaChain.kind === 'file' && viaChain.stat?.size).toBe(1);
    expect(await resolveTargetPath(path.join(dir, 'dangling'))).toEqual({
      kind: 'file',
      path: path.join(dir, 'real', 'new.csv'),
      stat: undefined,
    });
  });

  it('refuses folders, names ending in /, missing folders and link loops', async () => {
    const dir = scratch();
    await expect(resolveTargetPath(dir)).rejects.toThrow(/it is a folder/);
    await expect(resolveTargetPath(`${dir}/nope/`)).rejects.toThrow(/a file name cannot end with \//);
    // A missing folder cannot be written (exit 10), as for --state.
    await expect(resolveTargetPath(`${dir}/nope/x.csv`)).rejects.toBeInstanceOf(CannotWriteError);
    symlinkSync('loop2', path.join(dir, 'loop1'));
    symlinkSync('loop1', path.join(dir, 'loop2'));
    await expect(resolveTargetPath(path.join(dir, 'loop1'))).rejects.toBeInstanceOf(CannotWriteError);
  });
});

describe('cannotWrite', () => {
  it.each([
    ['ENOSPC', 'the disk is full'],
    ['EROFS', 'the file system is read-only'],
    ['EACCES', 'permission denied'],
    ['ENAMETOOLONG', 'the file name is too long'],
    ['EWHATEVER', 'EWHATEVER (open)'],
  ])('%s: names the file and says why, with a hint', (code, words) => {
    const err = cannotWrite('/d/x.csv', errno(code)) as CannotWriteError;
    expect(err).toBeInstanceOf(CannotWriteError);
    expect(err.message).toBe(`cannot write /d/x.csv: ${words}`);
    expect(err.hint).toBeTruthy();
  });

  it('leaves other errors alone', () => {
    const bug = Object.assign(new TypeError('x'), { code: 'ERR_INVALID_ARG_TYPE' });
    expect(cannotWrite('/d/x', bug)).toBe(bug);
    const abort = new Error('aborted');
    expect(cannotWrite('/d/x', abort)).toBe(abort);
  });
});
