// The recipes of docs/deploy.md: the systemd units pass `systemd-analyze verify`, the Dockerfile's sources exist, the doc shows the files as they are.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const UNITS = ['recall-feed-sync.service', 'recall-feed-sync.timer'];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('systemd units', () => {
  it.skipIf(!hasSystemdAnalyze)('pass systemd-analyze verify without a warning', () => {
    const dir = tempDir('rf-units-');
    // verify wants ExecStart's program to exist: the launcher of this checkout stands in for the installed one.
    const service = read('deploy/systemd/recall-feed-sync.service').replace(
      '/usr/local/bin/recall-feed',
      path.join(ROOT, 'bin', 'recall-feed.cjs'),
    );
    writeFileSync(path.join(dir, UNITS[0] as string), service);
    copyFileSync(path.join(ROOT, 'deploy/systemd', UNITS[1] as string), path.join(dir, UNITS[1] as string));
    const r = spawnSync('systemd-analyze', ['verify', ...UNITS.map((u) => path.join(dir, u))], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.skipIf(hasSystemdAnalyze)('LOUD: systemd-analyze is missing here, so the units were not verified', () => {});

  it('the timer catches up after downtime and spreads its start', () => {
    const timer = read('deploy/systemd/recall-feed-sync.timer');
    expect(timer).toMatch(/^Persistent=true$/m);
    expect(timer).toMatch(/^RandomizedDelaySec=\S+$/m);
    expect(timer).toMatch(/^WantedBy=timers\.target$/m);
  });

  it('the service runs as its own user and names no secret', () => {
    const service = read('deploy/systemd/recall-feed-sync.service');
    expect(service).toMatch(/^User=recall-feed$/m);
    expect(service).not.toMatch(/--api-key|RECALL_FEED_API_KEY=|--monitor|hc-ping\.com\/[0-9a-f]{8}/i);
    // Every flag it passes is one the CLI knows.
    const exec = /^ExecStart=\S+ (.*)$/m.exec(service)?.[1] ?? '';
    const help = execFileSync(process.execPath, [path.join(ROOT, 'bin', 'recall-feed.cjs'), 'sync', '--help'], {
      encoding: 'utf8',
    });
    for (const flag of exec.match(/--[a-z-]+/g) ?? []) expect(help).toContain(flag);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('Node 20 slim, a non-root user, the archive and the config on volumes', () => {
    expect(dockerfile.match(/^FROM node:20-slim\b/gm)?.length).toBe(2);
    expect(dockerfile).toMatch(/^USER recall-feed$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data", "\/config"\]$/m);
  });

  it('every COPY source of the build stage exists in the repository (docker cannot run here)', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      (m[1] as string).split(/\s+/),
    );
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) expect(existsSync(path.join(ROOT, source)), source).toBe(true);
    // What the final stage copies out of the build must be made there: dist by `prepare`, the rest copied in.
    const fromBuild = [...dockerfile.matchAll(/^COPY --from=build \/src\/(\S+) /gm)].map((m) => m[1]);
    for (const item of fromBuild) expect(['dist', 'node_modules', ...sources]).toContain(item);
  });
});

describe('docs/deploy.md', () => {
  it('shows the units and the Dockerfile exactly as shipped', () => {
    const doc = read('docs/deploy.md');
    for (const file of [...UNITS.map((u) => `deploy/systemd/${u}`), 'Dockerfile']) expect(doc).toContain(read(file));
  });
});
