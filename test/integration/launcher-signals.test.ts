// Stop signals on a real process through bin/recall-feed.cjs (the checkout's, over the sources bundled as dist/ would
// be: no build needed): SIGHUP stops a run as SIGTERM does, and a SIGTERM that comes while the CLI still loads is kept
// for the run. Either way: exit 130, and the JSON log's last line says so (docs/exit-codes.md, docs/cron.md).
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * dist/cli/main.js in the launcher's layout: the real one, after a pause while it loads when RF_TEST_LOADING names a
 * file. It writes that file, then waits for RF_TEST_LOADED to exist: a test acts while the CLI is still loading.
 */
const SLOW_MAIN = `import { existsSync, writeFileSync } from 'node:fs';
export * from './main-real.js';
if (process.env.RF_TEST_LOADING) {
  writeFileSync(process.env.RF_TEST_LOADING, '');
  await new Promise((resolve) => {
    const poll = setInterval(() => existsSync(process.env.RF_TEST_LOADED) && resolve(clearInterval(poll)), 10);
  });
}
`;

/**
 * The launcher's layout in a temp folder: bin/recall-feed.cjs copied from the checkout, and the two modules it imports
 * (dist/cli/main.js, dist/cli/process-context.js) bundled from the sources into shared chunks, as the build does (one
 * copy of each class, so the error an interrupt raises is the one main() maps to exit 130).
 */
async function launcher(): Promise<string> {
  const dir = tempDir('rf-launcher-', { scope: 'file' });
  const cli = path.join(dir, 'dist', 'cli');
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { 'main-real': 'src/cli/main.ts', 'process-context': 'src/runtime/process-context.ts' },
    outdir: cli,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    alias: { '@commander-js/extra-typings': 'commander' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
  writeFileSync(path.join(cli, 'main.js'), SLOW_MAIN);
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  copyFileSync(path.join(ROOT, 'bin', 'recall-feed.cjs'), path.join(dir, 'bin', 'recall-feed.cjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return path.join(dir, 'bin', 'recall-feed.cjs');
}

/** The last line of a JSON log, parsed. */
function lastJsonLine(stderr: string): Record<string, unknown> {
  const lines = stderr.split('\n').filter((l) => l !== '');
  return JSON.parse(lines.at(-1) ?? 'null') as Record<string, unknown>;
}

describe('stop signals through the launcher (a real process)', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await launcher();
  }, 120_000);

  /** `recall-feed <args>` against `baseUrl`, in a home of its own; killed if the test ends first. */
  function start(args: string[], baseUrl: string, env: Record<string, string> = {}) {
    const home = tempDir('rf-launcher-home-');
    const child = execa(process.execPath, [bin, ...args, '--log-format', 'json'], {
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        RECALL_FEED_CONFIG_DIR: path.join(home, 'cfg'),
        RECALL_FEED_BASE_URL: baseUrl,
        RECALL_FEED_API_KEY: ALL_KEY,
        ...env,
      },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    deferCleanup(() => {
      child.kill('SIGKILL');
    });
    return { child, home };
  }

  it('SIGHUP to a running feed --watch --state: exit 130, the log ends "interrupted", no lock left', async () => {
    const sandbox = await sandboxFor({ seed: 71, recordCount: 50 });
    const { child, home } = start(['feed', '--watch', '--interval', '1', '--state', 'seen.json'], sandbox.url);
    const state = path.join(home, 'seen.json');
    // Polling: at least two polls done, the state written by the first.
    await until('two polls', () => sandbox.requests().filter((r) => r.path === '/v1/recalls/feed').length >= 2);
    await until('the state file', () => existsSync(state));
    child.kill('SIGHUP');
    const r = await child;
    expect(r.signal, r.stderr).toBeUndefined();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(lastJsonLine(r.stderr)).toMatchObject({ level: 'error', msg: 'interrupted', exit_code: 130 });
    expect(existsSync(`${state}.lock.json`)).toBe(false);
  }, 60_000);

  it('SIGTERM while the CLI still loads: kept for the run, which ends at once with exit 130 and its last word', async () => {
    const sandbox = await sandboxFor({ seed: 72, recordCount: 50 });
    const gate = tempDir('rf-launcher-gate-');
    const loading = path.join(gate, 'loading');
    const loaded = path.join(gate, 'loaded');
    const { child, home } = start(['feed', '--hours', '24', '--state', 'seen.json'], sandbox.url, {
      RF_TEST_LOADING: loading,
      RF_TEST_LOADED: loaded,
    });
    await until('the CLI loading', () => existsSync(loading));
    child.kill('SIGTERM');
    writeFileSync(loaded, '');
    const r = await child;
    expect(r.signal, r.stderr).toBeUndefined();
    expect(r.exitCode, r.stderr).toBe(130);
    expect(lastJsonLine(r.stderr)).toMatchObject({ level: 'error', msg: 'interrupted', exit_code: 130 });
    // Stopped before it wrote anything: no output, no state.
    expect(r.stdout).toBe('');
    expect(existsSync(path.join(home, 'seen.json'))).toBe(false);
  }, 60_000);
});
