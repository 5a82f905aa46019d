// The recipes of docs/deploy.md: the install script puts recall-feed in an npm prefix and writes units that pass `systemd-analyze verify`, the Dockerfile's sources exist, the doc shows the files as they are.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const UNITS = ['recall-feed-sync.service', 'recall-feed-sync.timer'];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('systemd units', () => {
  it('the recipe installs with npm into a prefix and writes units that pass systemd-analyze verify', () => {
    const doc = read('docs/deploy.md');
    // The guide's commands, as written: pack the clone, then the script installs the tarball and writes the units.
    expect(doc).toMatch(/^npm ci && npm pack\b/m);
    expect(doc).toMatch(/^deploy\/install-systemd\.sh \.\/recall-feed-\S+\.tgz\b/m);
    expect(doc).not.toMatch(/^npm install -g recall-feed\b/m);
    const dir = tempDir('rf-deploy-');
    const prefix = path.join(dir, 'prefix');
    const units = path.join(dir, 'units');
    mkdirSync(units);
    // The same script, given the clone rather than its tarball: a tarball install resolves its dependencies'
    // versions from the registry (npm ci cached the tarballs, not that metadata), so it cannot run offline. The
    // clone's dist/ was built before the e2e run; a rebuild (its prepare script) would pull dist/ from under
    // the e2e files running beside this one, hence ignore-scripts. npm_config_prefix is `npm install -g --prefix`.
    const env = {
      ...process.env,
      npm_config_prefix: prefix,
      npm_config_offline: 'true',
      npm_config_ignore_scripts: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      // Its debug log goes with the temp folder (logs-max would prune the user's own logs instead).
      npm_config_logs_dir: path.join(dir, 'npm-logs'),
    };
    const install = spawnSync('sh', [path.join(ROOT, 'deploy', 'install-systemd.sh'), ROOT, units], {
      encoding: 'utf8',
      env,
    });
    expect(install.stderr).not.toMatch(/error/i);
    expect(install.status).toBe(0);
    const launcher = path.join(prefix, 'bin', 'recall-feed');
    const version = execFileSync(launcher, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(JSON.parse(read('package.json')).version);
    const written = readFileSync(path.join(units, UNITS[0] as string), 'utf8');
    const shipped = read(`deploy/systemd/${UNITS[0]}`);
    expect(/^ExecStart=(\S+) /m.exec(written)?.[1]).toBe(launcher);
    // Nothing but the program's path changed.
    expect(written.replace(launcher, '/usr/local/bin/recall-feed')).toBe(shipped);
    expect(readFileSync(path.join(units, UNITS[1] as string), 'utf8')).toBe(read(`deploy/systemd/${UNITS[1]}`));
    if (!hasSystemdAnalyze) return;
    const r = spawnSync('systemd-analyze', ['verify', ...UNITS.map((u) => path.join(units, u))], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.skipIf(hasSystemdAnalyze)('LOUD: systemd-analyze is missing here, so the units were not verified', () => {});

  it('a bare name is never handed to npm (the registry would answer with whoever owns it)', () => {
    const dir = tempDir('rf-deploy-');
    const r = spawnSync('sh', [path.join(ROOT, 'deploy', 'install-systemd.sh'), 'recall-feed', dir], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, npm_config_prefix: path.join(dir, 'prefix'), npm_config_offline: 'true' },
    });
    expect(r.stderr).toContain('error: ./recall-feed does not exist');
    expect(r.status).toBe(2);
    expect(existsSync(path.join(dir, 'prefix'))).toBe(false);
  });

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

describe("docs/deploy.md's container recipe", () => {
  const doc = read('docs/deploy.md');
  const dockerfile = read('Dockerfile');
  // The shell block after the build, its continued lines joined.
  const start = doc.indexOf('docker build -t recall-feed .');
  const recipe = doc.slice(start, doc.indexOf('```', start)).replace(/\s*\\\n\s*/g, ' ');
  const lines = recipe.split('\n');

  it("doctor names the archive the image's sync keeps, so that the archive and outbox checks run", () => {
    // The default archive under the image's XDG_DATA_HOME (src/runtime/archive/archive-file.ts).
    const data = /XDG_DATA_HOME=(\S+)/.exec(dockerfile)?.[1];
    expect(data).toBeDefined();
    const doctors = lines.filter((l) => /^docker run .* recall-feed doctor /.test(l));
    expect(doctors.length).toBeGreaterThan(0);
    for (const line of doctors) expect(line).toContain(` --db ${data}/recall-feed/recalls.db`);
  });

  it("a bind-mounted folder is created first, owned by the image's fixed uid and gid", () => {
    const uid = /useradd .*--uid (\d+)/.exec(dockerfile)?.[1];
    const gid = /groupadd .*--gid (\d+)/.exec(dockerfile)?.[1];
    expect(uid).toBeDefined();
    expect(gid).toBeDefined();
    const mounts = lines.flatMap((l, i) => [...l.matchAll(/ -v (\/\S+):\S+/g)].map((m) => ({ folder: m[1], at: i })));
    expect(mounts.length).toBeGreaterThan(0);
    for (const { folder, at } of mounts) {
      const made = lines.findIndex((l) => l.includes(`install -d -o ${uid} -g ${gid} `) && l.endsWith(` ${folder}`));
      expect(made, folder).toBeGreaterThanOrEqual(0);
      expect(made, folder).toBeLessThan(at);
    }
  });
});
