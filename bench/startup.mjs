// Start-up cost of the CLI as ratios to a bare `node -e 0` spawned in the same rounds, plus which packages each command loads.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BIN, Claims, cleanEnv, median, ratio, requireBuild, ROOT, run, table, tempDir, TRACE_PRELOAD } from './lib/common.mjs.mjs';
import { packagesInTrace, staticGraph } from './lib/import-graph.mjs.mjs';

const ROUNDS = 15;
const WARMUP = 2;
/** Packages deps.md measured at +55 to +82 ms each; --help should need none of them. */
const HEAVY = ['undici', 'zod', 'conf', 'ora'];
/** Everything loaded eagerly measured 343 ms against 61 ms (5.6×) in deps.md; lazy --help 88 ms (1.45×). */
const HELP_RATIO_LIMIT = 2.5;

const claims = new Claims('startup');
try {
  requireBuild();
  const dir = tempDir('startup');
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') });
  const commands = [
    { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { name: '--help', args: [BIN, '--help'] },
    { name: 'config path', args: [BIN, 'config', 'path'] },
    { name: 'feed --sandbox --max 1', args: [BIN, 'feed', '--sandbox', '--max', '1'] },
  ];

  // 1. What dist/cli/main.js pulls in before any command runs.
  const graph = staticGraph(path.join(ROOT, 'dist', 'cli', 'main.js'));
  console.log(`static import graph of dist/cli/main.js: ${graph.files.length} local modules; packages: ${graph.packages.join(', ') || '(none)'}`);
  const eagerHeavy = graph.packages.filter((p) => HEAVY.includes(p));
  claims.check(`dist/cli/main.js imports none of ${HEAVY.join(', ')} statically`, eagerHeavy.length === 0, eagerHeavy.join(', ') || 'packages: ' + graph.packages.join(', '));

  // 2. What each command actually resolves at run time (a loader hook logs every resolved module; untimed).
  const loaded = {};
  for (const c of commands.slice(1)) {
    const trace = path.join(dir, 'trace.txt');
    rmSync(trace, { force: true });
    const res = await run(process.execPath, ['--import', TRACE_PRELOAD, ...c.args], {
      env: { ...env, BENCH_TRACE_FILE: trace },
      timeoutMs: 30_000,
    });
    let urls = [];
    try {
      urls = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    } catch {
      // no trace: reported below as "nothing resolved"
    }
    loaded[c.name] = { packages: packagesInTrace(urls), modules: urls.length, code: res.code };
  }
  console.log('\npackages resolved at run time (loader-hook trace, one run each):');
  console.log(
    table(
      ['command', 'modules', 'packages'],
      Object.entries(loaded).map(([name, l]) => [name, l.modules, l.packages.join(', ') || '(none)']),
    ),
  );
  const helpHeavy = loaded['--help'].packages.filter((p) => HEAVY.includes(p));
  claims.check(`--help loads none of ${HEAVY.join(', ')}`, loaded['--help'].modules > 0 && helpHeavy.length === 0, helpHeavy.join(', ') || 'none loaded');
  const configHttp = loaded['config path'].packages.filter((p) => p === 'undici' || p === 'ora');
  claims.check('config path builds no HTTP client (no undici, no ora)', loaded['config path'].modules > 0 && configHttp.length === 0, configHttp.join(', ') || 'none loaded');

  // 3. Wall time from spawn to exit, all four commands interleaved in every round (order rotated).
  const times = commands.map(() => []);
  const failures = [];
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let j = 0; j < commands.length; j++) {
      const i = (round + j) % commands.length;
      const res = await run(process.execPath, commands[i].args, { env, timeoutMs: 30_000 });
      if (res.code !== 0) failures.push(`${commands[i].name}: exit ${res.code} ${res.stderr.trim().split('\n')[0] ?? ''}`);
      if (round >= WARMUP) times[i].push(res.ms);
    }
  }
  claims.check('every timed run exits 0', failures.length === 0, failures.slice(0, 3).join('; '));

  const medians = times.map(median);
  const base = medians[0];
  console.log(`\nspawn-to-exit, median of ${ROUNDS} interleaved rounds (after ${WARMUP} warm-up rounds):`);
  console.log(
    table(
      ['command', 'ratio to node -e 0', 'min..max, ÷ baseline median'],
      commands.map((c, i) => [
        c.name,
        ratio(medians[i], base),
        `${ratio(Math.min(...times[i]), base)}..${ratio(Math.max(...times[i]), base)}`,
      ]),
    ),
  );
  console.log(`(baseline median ${base.toFixed(0)} ms on this machine, for scale only)`);
  const helpRatio = medians[1] / base;
  claims.check(`--help costs less than ${HELP_RATIO_LIMIT}× node -e 0`, helpRatio < HELP_RATIO_LIMIT, ratio(medians[1], base));

  claims.finish(
    `--help ${ratio(medians[1], base)}, config path ${ratio(medians[2], base)}, feed --sandbox --max 1 ${ratio(medians[3], base)} of node -e 0`,
  );
} catch (err) {
  claims.crash(err);
}
