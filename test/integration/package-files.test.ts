// What the published package holds beside the code: the licence its package.json names (npm ships LICENSE on its
// own), and library source maps that carry the sources they map (src/ is not shipped). Real npm and tsc runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the package', () => {
  it('ships the MIT licence text, with its copyright line', async () => {
    const home = tempDir('rf-pack-');
    // --dry-run writes no tarball; --ignore-scripts: no `prepare` (the build) for a listing.
    const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      env: { HOME: home, npm_config_cache: path.join(home, 'cache'), npm_config_update_notifier: 'false' },
    });
    const [packed] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
    const files = packed?.files.map((f) => f.path) ?? [];
    expect(files).toContain('LICENSE');
    expect(files).toContain('package.json');
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).license).toBe('MIT');
    const licence = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8').split('\n');
    expect(licence[0]).toBe('MIT License');
    expect(licence).toContain('Copyright (c) 2026 recall-feed contributors');
    expect(licence).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR');
  }, 120_000);

  it("the library's source maps hold each source they map, as it is in src/", async () => {
    const out = tempDir('rf-maps-');
    // The build's own tsc arguments (scripts/build.mjs), into a folder of the test's: dist/ is left alone.
    const build = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'build.mjs')).href)) as { TSC_ARGS: string[] };
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await execa(process.execPath, [tsc, ...build.TSC_ARGS, '--outDir', out], { cwd: ROOT });
    const emitted = readdirSync(out, { recursive: true, encoding: 'utf8' });
    const maps = emitted.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    expect(maps.length).toBe(emitted.filter((f) => f.endsWith('.js')).length);
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path.join(out, map), 'utf8')) as {
        sources: string[];
        sourcesContent?: string[];
      };
      expect(sourcesContent?.length, map).toBe(sources.length);
      sources.forEach((source, i) => {
        const file = path.resolve(path.dirname(path.join(out, map)), source);
        expect(path.relative(path.join(ROOT, 'src'), file).startsWith('..'), `${map}: ${source}`).toBe(false);
        expect(sourcesContent?.[i], `${map}: ${source}`).toBe(readFileSync(file, 'utf8'));
      });
    }
  }, 120_000);
});
