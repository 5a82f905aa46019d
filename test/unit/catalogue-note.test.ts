// The note of a catalogue's sha256 by its file's stamp: given back only for that stamp, never kept for a file written mid-read.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp, keepNote, notedSha256, noteFile } from '../../src/jobs/match/catalogue-note.js';
import { tempDir } from '../helpers/temp-dir.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('catalogue note', () => {
  it("gives the noted sha256 for the file's stamp only: rewritten, touched or another file, none", async () => {
    const dir = tempDir('rf-note-');
    const env = { RECALL_FEED_CACHE_DIR: path.join(dir, 'cache') };
    const catalogue = path.join(dir, 'products.csv');
    writeFileSync(catalogue, 'sku,gtin\nA,1\n');
    const note = noteFile(env, catalogue);
    expect(note).not.toBe(noteFile(env, path.join(dir, 'other.csv')));
    const stamp = await fileStamp(catalogue);
    if (!stamp) throw new Error('no stamp');
    expect(await notedSha256(note, stamp)).toBeUndefined();
    await keepNote(note, catalogue, stamp, sha('sku,gtin\nA,1\n'));
    expect(statSync(note).mode & 0o777).toBe(0o600);
    expect(await notedSha256(note, stamp)).toBe(sha('sku,gtin\nA,1\n'));

    utimesSync(catalogue, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    const touched = await fileStamp(catalogue);
    if (!touched) throw new Error('no stamp');
    expect(touched).not.toEqual(stamp);
    expect(await notedSha256(note, touched)).toBeUndefined();

    writeFileSync(catalogue, 'sku,gtin\nB,2\n');
    const rewritten = await fileStamp(catalogue);
    if (!rewritten) throw new Error('no stamp');
    expect(await notedSha256(note, rewritten)).toBeUndefined();
    expect(await fileStamp(path.join(dir, 'missing.csv'))).toBeUndefined();
  });

  it('keeps no note when the file changed between the two stamps; a note it cannot parse is none', async () => {
    const dir = tempDir('rf-note-');
    const env = { RECALL_FEED_CACHE_DIR: path.join(dir, 'cache') };
    const catalogue = path.join(dir, 'products.csv');
    writeFileSync(catalogue, 'sku,gtin\nA,1\n');
    const note = noteFile(env, catalogue);
    const before = await fileStamp(catalogue);
    if (!before) throw new Error('no stamp');
    writeFileSync(catalogue, 'sku,gtin\nA,1\nB,2\n');
    await keepNote(note, catalogue, before, sha('sku,gtin\nA,1\n'));
    expect(existsSync(note)).toBe(false);

    const now = await fileStamp(catalogue);
    if (!now) throw new Error('no stamp');
    await keepNote(note, catalogue, now, sha('sku,gtin\nA,1\nB,2\n'));
    expect(JSON.parse(readFileSync(note, 'utf8')).sha256).toBe(sha('sku,gtin\nA,1\nB,2\n'));
    for (const text of ['{"stamp":', '[]', 'null', JSON.stringify({ stamp: now, sha256: 'not a sha' })]) {
      writeFileSync(note, text);
      expect(await notedSha256(note, now), text).toBeUndefined();
    }
  });
});
