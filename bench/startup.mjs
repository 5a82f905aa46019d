// Start-up cost of the CLI measured side by side: --version and feed --help against a bare `node -e 0`, one page
// against the leanest script that does the same (lean-page.mjs); the peak memory of a one-page run, and what each command loads.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BIN,
  Claims,
  cleanEnv,
  forkSandbox,
  GENEROUS_LIMITS,
  median,
  ratio,
  requireBuild,
  run,
  ROOT,
  RUSAGE_PRELOAD,
  table,
  tempDir,
  TRACE_PRELOAD,
} from './lib/common.mjs';
import { bundleContents, packagesLoaded, parseTrace } from './lib/import-graph.mjs';

const ROUNDS = 25;
const WARMUP = 2;
const MEMORY_ROUNDS = 5;
/**
 * Issue 27's targets, medians of spawn-to-exit times in the same rounds: --version and --help as a ratio of
 * `node -e 0`, the one page as a ratio of lean-page.mjs (Node's own fetch, one request, one record printed).
 */
const TARGETS = { version: 1.3, help: 2, rootHelp: 2, page: 1.2 };
/** What each command is compared with. */
const AGAINST = { version: 'baseline', help: 'baseline', rootHelp: 'baseline', page: 'lean' };
const LEAN_PAGE = path.join(ROOT, 'bench', 'lean-page.mjs');
const PEAK_RSS_LIMIT_MIB = 80;
/** What a run printing one page of JSON lines has no use for: a spinner, CSV, the archive, the run lock, zod (only for a bad body). */
const NOT_FOR_JSONL = ['ora', 'csv-stringify', 'csv-parse', 'better-sqlite3', 'proper-lockfile', 'zod'];

const mib = (kb) => kb / 1024;
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;

/**
 * Runs `node <args>` once with a preload that logs every module loaded; returns the trace's lines as
 * { kind, url }: `esm` resolved by the ES module loader, `read` a code file read (CommonJS, the front).
 */
async function traceRun(args, env, dir) {
  const trace = path.join(dir, 'trace.txt');
  rmSync(trace, { force: true });
  const res = await run(process.execPath, ['--import', TRACE_PRELOAD, ...args], {
    env: { ...env, BENCH_TRACE_FILE: trace },
    timeoutMs: 30_000,
  });
  let lines = [];
  try {
    lines = parseTrace(readFileSync(trace, 'utf8'));
  } catch {
    // no trace: reported as "nothing loaded"
  }
  return { lines, code: res.code };
}

/** Runs `node <args>` with a preload that records the process's own peak RSS (KB) at exit. */
async function peakRssKB(args, env, dir) {
  const file = path.join(dir, 'rusage.json');
  rmSync(file, { force: true });
  const res = await run(process.execPath, ['--import', RUSAGE_PRELOAD, ...args], {
    env: { ...env, BENCH_RUSAGE_FILE: file },
    timeoutMs: 30_000,
  });
  if (res.code !== 0) throw new Error(`exit ${res.code}: node ${args.join(' ')}: ${res.stderr.trim().split('\n')[0]}`);
  return JSON.parse(readFileSync(file, 'utf8')).maxRssKB;
}

const claims = new Claims('startup');
let sandbox;
try {
  requireBuild();
  const dir = tempDir('startup');
  // A local server in its own process, so its start-up and serving stay out of the CLI's figures.
  sandbox = await forkSandbox({ port: 0, recordCount: 100, rateLimits: GENEROUS_LIMITS });
  const env = cleanEnv({
    HOME: dir,
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    RECALL_FEED_API_KEY: sandbox.key,
  });
  // Set, it makes every Node start read a CA bundle (tens of ms), which hides real costs and shrinks every ratio.
  delete env.NODE_EXTRA_CA_CERTS;
  const commands = [
    { id: 'baseline', name: 'node -e 0', args: ['-e', '0'] },
    { id: 'version', name: 'recall-feed --version', args: [BIN, '--version'] },
    { id: 'help', name: 'recall-feed feed --help', args: [BIN, 'feed', '--help'] },
    { id: 'rootHelp', name: 'recall-feed --help', args: [BIN, '--help'] },
    {
      id: 'page',
      name: 'recall-feed feed --max 1 -f jsonl',
      args: [BIN, '--base-url', sandbox.url, 'feed', '--max', '1', '-f', 'jsonl'],
    },
    { id: 'lean', name: 'lean-page.mjs (fetch, one record)', args: [LEAN_PAGE, sandbox.url, sandbox.key] },
  ];
  const cli = commands.filter((c) => c.id in TARGETS);
  const indexOf = (id) => commands.findIndex((c) => c.id === id);

  // 1. What each command loads (one untimed run each, with a loader hook).
  const contents = await bundleContents();
  if (!contents)
    claims.note(
      'dist/cli does not match the sources (or is not a bundle): packages are named only when resolved from node_modules',
    );
  const loaded = {};
  for (const c of cli) {
    const { lines, code } = await traceRun(c.args, env, dir);
    const urls = lines.map((l) => l.url);
    // ES modules beyond the launcher (which --import makes the ES module loader start) and Node's built-ins.
    const esm = lines.filter((l) => l.kind === 'esm' && l.url !== pathToFileURL(BIN).href && l.url.startsWith('file:'));
    loaded[c.id] = {
      packages: packagesLoaded(urls, contents),
      modules: new Set(urls).size,
      esm: new Set(esm.map((l) => l.url)).size,
      code,
    };
  }
  const describe = (packages) =>
    [...packages].map(([name, bytes]) => (bytes ? `${name} ${kb(bytes)}` : name)).join(', ') || '(none)';
  console.log('packages loaded (loader-hook trace, one run each; sizes are bytes of bundled code):');
  console.log(
    table(
      ['command', 'modules', 'of them ES', 'packages'],
      cli.map((c) => [c.name, loaded[c.id].modules, loaded[c.id].esm, describe(loaded[c.id].packages)]),
    ),
  );
  for (const id of ['version', 'help', 'rootHelp']) {
    const extra = [...loaded[id].packages.keys()].filter((p) => p !== 'commander');
    claims.check(
      `${commands.find((c) => c.id === id).name} loads no package but commander`,
      loaded[id].modules > 0 && extra.length === 0,
      extra.join(', ') || undefined,
    );
    // Node's ES module loader alone costs about a third of `node -e 0`: these two are answered by CommonJS.
    claims.check(
      `${commands.find((c) => c.id === id).name} loads no ES module (the launcher is CommonJS, help comes from the CommonJS front)`,
      loaded[id].modules > 0 && loaded[id].esm === 0,
      loaded[id].esm ? `${loaded[id].esm} ES modules` : undefined,
    );
  }
  const needless = NOT_FOR_JSONL.filter((p) => loaded.page.packages.has(p));
  claims.check(
    `one page of jsonl loads none of ${NOT_FOR_JSONL.join(', ')}`,
    loaded.page.modules > 0 && needless.length === 0,
    needless.join(', ') || undefined,
  );
  await sandbox.requests(); // the traced run's request is not counted below

  // 2. Spawn-to-exit time, all five commands in every round, in a rotated order.
  const times = commands.map(() => []);
  const failures = [];
  const badPages = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let j = 0; j < commands.length; j++) {
      const i = (round + j) % commands.length;
      const c = commands[i];
      const onePage = c.id === 'page' || c.id === 'lean';
      const res = await run(process.execPath, c.args, { env, timeoutMs: 30_000, captureStdout: onePage });
      if (res.code !== 0) failures.push(`${c.name}: exit ${res.code} ${res.stderr.trim().split('\n')[0] ?? ''}`);
      if (onePage && res.code === 0) {
        const lines = res.stdout.split('\n').filter(Boolean);
        if (lines.length !== 1 || typeof JSON.parse(lines[0]).id !== 'number') badPages.push(`${lines.length} lines`);
      }
      if (round >= WARMUP) times[i].push(res.ms);
    }
  }
  claims.check('every timed run exits 0', failures.length === 0, failures.slice(0, 3).join('; ') || undefined);
  const served = await sandbox.requests();
  // The CLI's page and the lean script's, in every round.
  const pageRuns = 2 * (WARMUP + ROUNDS);
  claims.check(
    'each one-page run (the CLI and the lean script) prints one record and sends one request, answered 200',
    badPages.length === 0 && served.count === pageRuns && served.statuses[200] === pageRuns,
    `${served.count} requests for ${pageRuns} runs, statuses ${JSON.stringify(served.statuses)}${badPages.length ? `; stdout: ${badPages[0]}` : ''}`,
  );

  const medians = times.map(median);
  const medianOf = (id) => medians[indexOf(id)];
  console.log(`\nspawn-to-exit, median of ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up rounds):`);
  console.log(
    table(
      ['command', 'median', 'against', 'ratio', 'target', 'min..max (÷ its median)'],
      commands.map((c, i) => {
        const against = AGAINST[c.id];
        return [
          c.name,
          `${medians[i].toFixed(0)} ms`,
          against ? commands[indexOf(against)].name : '',
          against ? ratio(medians[i], medianOf(against)) : '',
          TARGETS[c.id] ? `≤ ${TARGETS[c.id]}×` : '',
          against
            ? `${ratio(Math.min(...times[i]), medianOf(against))}..${ratio(Math.max(...times[i]), medianOf(against))}`
            : '',
        ];
      }),
    ),
  );
  console.log('(milliseconds for scale only: the machine is shared)');
  const ratioOf = (id) => medianOf(id) / medianOf(AGAINST[id]);
  for (const c of cli) {
    claims.check(
      `${c.name}: at most ${TARGETS[c.id]}× ${commands[indexOf(AGAINST[c.id])].name}`,
      ratioOf(c.id) <= TARGETS[c.id],
      ratio(ratioOf(c.id), 1),
    );
  }

  // 3. Peak RSS of the one-page run (getrusage at exit, via a preload), with node -e 0 beside it for scale.
  const peaks = { baseline: [], page: [], lean: [] };
  for (let round = 0; round < MEMORY_ROUNDS; round++) {
    for (const id of Object.keys(peaks)) peaks[id].push(await peakRssKB(commands[indexOf(id)].args, env, dir));
  }
  await sandbox.requests();
  const pagePeak = mib(median(peaks.page));
  console.log(
    `\npeak RSS, median of ${MEMORY_ROUNDS}: one page ${pagePeak.toFixed(1)} MiB (${mib(Math.min(...peaks.page)).toFixed(1)}..${mib(Math.max(...peaks.page)).toFixed(1)}), lean-page.mjs ${mib(median(peaks.lean)).toFixed(1)} MiB, node -e 0 ${mib(median(peaks.baseline)).toFixed(1)} MiB`,
  );
  claims.check(
    `one-page run peaks under ${PEAK_RSS_LIMIT_MIB} MiB`,
    pagePeak < PEAK_RSS_LIMIT_MIB,
    `${pagePeak.toFixed(1)} MiB`,
  );

  claims.finish(
    `--version ${ratio(ratioOf('version'), 1)} and feed --help ${ratio(ratioOf('help'), 1)} of node -e 0, one page ${ratio(ratioOf('page'), 1)} of the lean script; one page peaks at ${pagePeak.toFixed(0)} MiB`,
  );
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
}
