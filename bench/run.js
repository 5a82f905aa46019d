// Runs every benchmark in sequence (or those named on the command line) and prints a summary table.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Each benchmark and the longest it may take on a slow, shared 2-core machine. */
const BENCHMARKS = [
  { name: 'startup', timeoutMs: 90_000 },
  { name: 'export-memory', timeoutMs: 180_000 },
  { name: 'watch-soak', timeoutMs: 200_000 },
  { name: 'client-throughput', timeoutMs: 180_000 },
  { name: 'pacing', timeoutMs: 150_000 },
  { name: 'match', timeoutMs: 600_000 },
  { name: 'match-scale', timeoutMs: 900_000 },
  { name: 'catalogue-shapes', timeoutMs: 300_000 },
  { name: 'match-quality', timeoutMs: 120_000 },
  { name: 'scope-accuracy', timeoutMs: 120_000 },
  { name: 'append-cost', timeoutMs: 180_000 },
  { name: 'archive', timeoutMs: 480_000 },
  { name: 'sync-cost', timeoutMs: 300_000 },
  { name: 'huge-field', timeoutMs: 180_000 },
  { name: 'archive-postgres', timeoutMs: 900_000 },
  { name: 'archive-scale', timeoutMs: 900_000 },
];

function runOne({ name, timeoutMs }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(HERE, `${name}.mjs`)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let summary;
    let timedOut = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('BENCH_SUMMARY ')) {
        try {
          summary = JSON.parse(line.slice('BENCH_SUMMARY '.length));
        } catch {
          summary = undefined;
        }
      } else {
        console.log(`  ${line}`);
      }
    });
    const timer = setTimeout(() => {
      timedOut = true;
      // The benchmark's own children are killed with it: each one kills what it started on exit, and
      // a SIGKILLed parent leaves IPC children that exit when their channel closes.
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      const ok = code === 0 && summary?.ok === true;
      let headline = summary?.headline ?? '';
      if (timedOut) headline = `timed out after ${timeoutMs / 1000} s`;
      else if (!summary) headline = `exited ${signal ?? code} without a summary`;
      if (summary?.failed?.length) headline += ` | FAILED: ${summary.failed.join('; ')}`;
      if (summary?.notes) headline += ` | ${summary.notes} note(s), see above`;
      resolve({ name, ok, seconds, headline });
    });
  });
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHMARKS.some((b) => b.name === w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? BENCHMARKS.filter((b) => wanted.includes(b.name)) : BENCHMARKS;

console.log(
  `recall-feed benchmarks on Node ${process.version}, ${(await import('node:os')).availableParallelism()} CPUs`,
);
console.log('Figures are ratios measured side by side in one run; absolute times on a shared machine mean little.\n');
const results = [];
for (const bench of selected) {
  console.log(`== ${bench.name}`);
  results.push(await runOne(bench));
  console.log('');
}

const rows = results.map((r) => [r.name, r.ok ? 'ok' : 'FAIL', `${r.seconds.toFixed(0)} s`, r.headline]);
const headers = ['benchmark', 'result', 'took', 'headline'];
const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
console.log('== summary');
console.log(line(headers));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));
const total = results.reduce((s, r) => s + r.seconds, 0);
console.log(`\n${results.filter((r) => r.ok).length} of ${results.length} passed in ${total.toFixed(0)} s`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
