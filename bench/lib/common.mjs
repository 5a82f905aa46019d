// Shared helpers for the benchmarks: paths, child processes with time limits, statistics, claims and the summary line.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'recall-feed.cjs');
export const RUSAGE_PRELOAD = path.join(ROOT, 'bench', 'lib', 'rusage-preload.mjs');
export const TRACE_PRELOAD = path.join(ROOT, 'bench', 'lib', 'trace-imports.mjs');

/** Rate limits no benchmark gets near: the sandbox then never answers 429 and the client never paces. */
export const GENEROUS_LIMITS = {
  minute: { limit: 10_000_000, windowMs: 60_000 },
  hour: { limit: 10_000_000, windowMs: 3_600_000 },
  day: { limit: 10_000_000, windowMs: 86_400_000 },
  month: { limit: 100_000_000 },
};

export function requireBuild() {
  // The CLI bundle (what bin/recall-feed.cjs runs) and the library.
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js')) || !existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.error('dist/ is missing: run `npm run build` first (npm run bench does).');
    process.exit(2);
  }
}

/** A temporary directory removed when the process exits, however it exits. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `recall-feed-bench-${prefix}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The parent's environment without anything that would change what the CLI does (keys, profiles, colour). */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(RECALL_FEED_|DEEPRECALL_)/.test(k)) continue;
    if (/^(HTTPS?_PROXY|NO_PROXY|FORCE_COLOR|NODE_OPTIONS)$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/**
 * Spawns a command and resolves when it exits; kills it (and fails) after `timeoutMs`.
 * stdout is discarded unless `captureStdout`; stderr is kept (bounded) for error reports.
 */
/** `stopWhen`: a promise; once it settles the child gets SIGINT (a watch stopped as Ctrl-C would). */
export function run(cmd, args, { env, cwd = ROOT, timeoutMs = 60_000, captureStdout = false, stopWhen } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      if (stdout.length < 1_000_000) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 100_000) stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out after ${timeoutMs} ms: ${cmd} ${args.join(' ')}`));
    }, timeoutMs);
    stopWhen?.then(
      () => child.kill('SIGINT'),
      () => child.kill('SIGINT'),
    );
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: performance.now() - started, stdout, stderr });
    });
  });
}

/**
 * Runs the CLI (bin/recall-feed.cjs) with a preload that records the process's own getrusage at exit:
 * peak RSS (KB) and CPU time. The preload adds nothing else to the process. `bin`: another build's launcher.
 */
export async function runCliMeasured(args, { env, timeoutMs, dir, bin = BIN, stopWhen }) {
  const file = path.join(dir, `rusage-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const res = await run(process.execPath, ['--import', RUSAGE_PRELOAD, bin, ...args], {
    env: { ...env, BENCH_RUSAGE_FILE: file },
    timeoutMs,
    stopWhen,
  });
  let usage;
  try {
    usage = JSON.parse(readFileSync(file, 'utf8'));
    rmSync(file, { force: true });
  } catch {
    usage = undefined;
  }
  return { ...res, usage };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A small left-aligned text table. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(cells[0]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

/** The claims a benchmark checks; `finish` prints them and the summary line, and sets the exit code. */
export class Claims {
  constructor(name) {
    this.name = name;
    this.results = [];
    this.notes = [];
    this.headline = '';
    this.started = performance.now();
  }

  check(what, ok, evidence) {
    this.results.push({ what, ok: Boolean(ok), evidence });
    return Boolean(ok);
  }

  /** Something seen while measuring that is not one of the claims (e.g. a slow leak below the claim's bound). */
  note(text) {
    this.notes.push(text);
  }

  finish(headline = this.headline) {
    console.log('\nclaims:');
    for (const r of this.results)
      console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.what}${r.evidence ? ` (${r.evidence})` : ''}`);
    for (const n of this.notes) console.log(`  NOTE  ${n}`);
    const ok = this.results.every((r) => r.ok);
    const failed = this.results.filter((r) => !r.ok).map((r) => r.what);
    // One machine-readable line for bench/run.js's summary table.
    console.log(`BENCH_SUMMARY ${JSON.stringify({ name: this.name, ok, headline, failed, notes: this.notes.length })}`);
    process.exitCode = ok ? 0 : 1;
    return ok;
  }

  /** An unexpected error: report it as a failed claim rather than a stack trace alone. */
  crash(err) {
    console.error(err?.stack ?? String(err));
    this.check('benchmark ran to the end', false, err?.message ?? String(err));
    this.finish(`crashed: ${err?.message ?? err}`);
  }
}

/**
 * Forks bench/lib/sandbox-process.mjs and starts a sandbox in it. Returns its url and key, `requests()`
 * (count and statuses since the last call; the log is then cleared) and `close()`.
 */
export async function forkSandbox(options, { timeoutMs = 60_000 } = {}) {
  const { fork } = await import('node:child_process');
  const child = fork(path.join(ROOT, 'bench', 'lib', 'sandbox-process.mjs'), [], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (msg, expect) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`the sandbox process did not answer '${msg.type}' within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (m) => {
        if (m.type === 'error') {
          cleanup();
          reject(new Error(`sandbox process: ${m.message}`));
        } else if (m.type === expect) {
          cleanup();
          resolve(m);
        }
      };
      const onExit = (code, signal) => {
        cleanup();
        reject(new Error(`the sandbox process exited (${signal ?? code})`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send(msg);
    });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  try {
    const started = await ask({ type: 'start', options }, 'started');
    return {
      url: started.url,
      key: started.key,
      pid: child.pid,
      requests: () => ask({ type: 'requests' }, 'requests'),
      close: async () => {
        try {
          await ask({ type: 'close' }, 'closed');
        } finally {
          kill();
        }
      },
    };
  } catch (err) {
    kill();
    throw err;
  }
}
