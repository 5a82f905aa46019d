// `match` at marketplace scale (issue 37): generated catalogues of 200k and 2M rows (10M with --rows) against 5,000 recalls.
//
// Claims: the catalogue streams (peak memory at 2M rows at most 1.3x that at 200k, and under 400 MiB); 2M rows in at
// most 20 s of CPU; 10M rows end to end in at most 2 minutes (when asked for). Every format streams a catalogue this
// large, so the answers are compared with the in-memory matcher's by the tests (match-stream-equivalence, match-stream).
// Then `match --watch` on each catalogue, stopped (as Ctrl-C) at the --monitor ping of its first poll, which checks the
// whole window: the same two memory claims (its rows equal the indexed watch's in match-watch-stream.test.ts).
//
//   node bench/match-scale.mjs                         200k and 2M rows
//   node bench/match-scale.mjs --rows 200000,2000000,10000000
//   node bench/match-scale.mjs --baseline DIR          also DIR/bin/recall-feed.cjs (an earlier build: a copy of its
//                                                      bin/, dist/ and package.json) on each catalogue, side by side
import { existsSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  Claims,
  cleanEnv,
  forkSandbox,
  GENEROUS_LIMITS,
  mb,
  ratio,
  requireBuild,
  runCliMeasured,
  table,
  tempDir,
} from './lib/common.mjs';
import { gtin13, rng, word, writeCsv } from './lib/generate.mjs';

const RECALLS = 5_000;
const flag = process.argv.indexOf('--rows');
const SIZES = flag > 0 ? process.argv[flag + 1].split(',').map(Number) : [200_000, 2_000_000];
const RUN_TIMEOUT_MS = 900_000;
const baselineAt = process.argv.indexOf('--baseline');
const BASELINE = baselineAt > 0 ? path.resolve(process.argv[baselineAt + 1], 'bin', 'recall-feed.cjs') : undefined;
if (BASELINE && !existsSync(BASELINE)) throw new Error(`no build at ${BASELINE}`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** 20,000 invented brands and 5,000 name words, drawn with a skew (a few common, many rare), as catalogues are. */
const vocabulary = (rand) => ({
  brands: Array.from({ length: 20_000 }, () => `${word(rand, 3)}${rand() < 0.3 ? ` ${word(rand, 2)}` : ''}`),
  words: Array.from({ length: 5_000 }, () => word(rand, 2 + Math.floor(rand() * 2))),
});
const skewed = (rand, list) => list[Math.floor(list.length * rand() ** 2)];

async function sampleRecalls(url, key) {
  const out = [];
  let cursor;
  for (let i = 0; i < 20; i++) {
    const q = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${url}/v1/recalls/feed?${q}`, { headers: { 'x-api-key': key } });
    const body = await res.json();
    out.push(...body.data);
    cursor = body.pagination.next_cursor;
    if (!cursor) break;
  }
  return out;
}

/**
 * `size` rows: one in 500 from a recall's barcode, one in 500 its brand and name, one in 1,000 its brand and model;
 * the rest invented (brands, skewed name words, a model-like word in a third of them: a vocabulary that keeps growing).
 */
async function writeCatalogue(file, size, sample, planted) {
  const rand = rng(size);
  const { brands, words } = vocabulary(rng(3));
  const lines = function* () {
    for (let i = 0; i < size; i++) {
      const r = i % 500 === 0 || i % 500 === 250 || i % 1000 === 125 ? sample[(i * 7) % sample.length] : undefined;
      const code = r?.standard_identifiers_and_barcodes.find((x) => /^\d{12,13}$/.test(x.value))?.value;
      let row;
      if (r && i % 500 === 0 && code) {
        row = [`S${i}`, code, '', '', '', ''];
        planted.add(`S${i} ${r.id}`);
      } else if (r && i % 500 === 250 && r.product_brand && r.product_name) {
        row = [`S${i}`, '', r.product_brand, '', r.product_name, ''];
        planted.add(`S${i} ${r.id}`);
      } else if (r?.product_model_numbers[0] && r.product_brand) {
        row = [`S${i}`, '', r.product_brand, r.product_model_numbers[0], '', ''];
        planted.add(`S${i} ${r.id}`);
      } else {
        const n = 2 + Math.floor(rand() * 4);
        const name = Array.from({ length: n }, () => skewed(rand, words));
        if (rand() < 0.33) name.push(`x${Math.floor(rand() * 1e7)}`);
        name.push(`${1 + Math.floor(rand() * 999)}g`);
        const gtin = rand() < 0.7 ? gtin13(`4${String(Math.floor(rand() * 1e11)).padStart(11, '0')}`) : '';
        const model = rand() < 0.3 ? `M${Math.floor(rand() * 1e7)}` : '';
        row = [`S${i}`, gtin, skewed(rand, brands), model, name.join(' '), rand() < 0.1 ? `L${i % 9999}` : ''];
      }
      yield row;
    }
  };
  await writeCsv(file, ['sku', 'gtin', 'brand', 'model', 'name', 'lot'], lines());
}

/**
 * Whether two jsonl outputs hold the same lines in the same order, for the recalls both runs were served (the
 * sandbox's 24-hour window moves on between two runs: a recall at its edge may be served to one run only).
 */
function sameRows(a, b) {
  const lines = (text) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ line, id: JSON.parse(line).recall_id }));
  const [x, y] = [lines(a), lines(b)];
  const served = new Set(y.map((l) => l.id));
  const both = new Set(x.map((l) => l.id).filter((id) => served.has(id)));
  const [kx, ky] = [x.filter((l) => both.has(l.id)), y.filter((l) => both.has(l.id))];
  return {
    equal: kx.length > 0 && kx.length === ky.length && kx.every((l, i) => l.line === ky[i].line),
    compared: kx.length,
    left: x.length + y.length - kx.length - ky.length,
  };
}

/**
 * A loopback `--monitor`: `polled` settles at the first ping after the start ping (a watch pings once per poll);
 * `body()` is that ping's body (the poll's numbers), once it came.
 */
async function pollMonitor() {
  let polled;
  let received;
  const first = new Promise((resolve) => {
    polled = resolve;
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.end();
      if (req.url.endsWith('/start') || received !== undefined) return;
      received = body;
      polled();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/ping`,
    polled: first,
    body: () => received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Each jsonl match row as `sku recall level`, sorted. */
const matchKeys = (jsonl) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map((row) => `${row.sku} ${row.recall_id} ${row.level} ${row.reason}`)
    .sort();

const claims = new Claims('match-scale');
let sandbox;
const dir = tempDir('match-scale');
try {
  requireBuild();
  sandbox = await forkSandbox({ port: 0, recordCount: RECALLS, rateLimits: GENEROUS_LIMITS });
  const env = cleanEnv({
    HOME: dir,
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    RECALL_FEED_API_KEY: sandbox.key,
  });
  const sample = await sampleRecalls(sandbox.url, sandbox.key);
  claims.check(`the sandbox serves ${RECALLS} recalls`, sample.length === RECALLS, String(sample.length));
  const runs = [];
  /**
   * One run of the CLI, measured and listed. `watch`: a `match --watch` stopped at its first poll's --monitor ping (it
   * writes to stdout, so no -o): exit 130 is its success, and the ping's first line its summary.
   */
  const measure = async (label, rows, args, out, { baseline = false, watch } = {}) => {
    const started = Date.now();
    const before = load();
    const res = await runCliMeasured([...args, '--base-url', sandbox.url, ...(watch ? [] : ['-o', out])], {
      env,
      timeoutMs: RUN_TIMEOUT_MS,
      dir,
      ...(baseline && { bin: BASELINE }),
      ...(watch && { stopWhen: watch.polled }),
    });
    const body = watch?.body();
    const ok = watch
      ? claims.check(
          `${label}: stopped after its first poll (exit 130)`,
          res.code === 130 && res.usage && body,
          res.stderr.trim().slice(-300),
        )
      : claims.check(`${label}: exit 0`, res.code === 0 && res.usage, res.stderr.trim().slice(-300));
    if (!ok) return undefined;
    const run = {
      label,
      rows,
      wall: (Date.now() - started) / 1000,
      cpu: (res.usage.userUs + res.usage.systemUs) / 1e6,
      rssKB: res.usage.maxRssKB,
      load: `${before} / ${load()}`,
      baseline,
      watch: watch !== undefined,
      summary: watch ? body.split('\n')[0] : res.stderr.trim().split('\n').at(-1),
    };
    runs.push(run);
    return run;
  };
  // `match --watch` on the same catalogue: its first poll (the whole window, as the run above), then Ctrl-C.
  const measureWatch = async (label, rows, file) => {
    const monitor = await pollMonitor();
    try {
      const args = ['match', '--catalog', file, '--watch', '--hours', '24', '--interval', '3600', '-f', 'jsonl', '-v'];
      return await measure(label, rows, [...args, '--monitor', monitor.url], undefined, { watch: monitor });
    } finally {
      await monitor.close();
    }
  };
  const feedOut = path.join(dir, 'feed.jsonl');
  const feed = await measure('feed (baseline)', 0, ['feed', '-f', 'jsonl'], feedOut);
  rmSync(feedOut, { force: true });
  const bySize = new Map();
  for (const size of SIZES) {
    const file = path.join(dir, `catalogue-${size}.csv`);
    const planted = new Set();
    await writeCatalogue(file, size, sample, planted);
    const out = path.join(dir, `matches-${size}.jsonl`);
    // -v: off a terminal, match says its summary line (the table's last column) only when asked.
    const args = ['match', '--catalog', file, '-f', 'jsonl', '-v'];
    const label = `match ${size.toLocaleString('en')} rows`;
    // The earlier build first on every other size (the machine's load drifts), its rows compared with this build's.
    const baseOut = path.join(dir, `matches-${size}-baseline.jsonl`);
    const baseline = async () =>
      BASELINE ? measure(`${label} (baseline)`, size, args, baseOut, { baseline: true }) : undefined;
    const first = SIZES.indexOf(size) % 2 === 1 ? await baseline() : undefined;
    const run = await measure(label, size, args, out);
    const base = first ?? (await baseline());
    if (run && base) {
      const same = sameRows(readFileSync(baseOut, 'utf8'), readFileSync(out, 'utf8'));
      claims.check(
        `${size.toLocaleString('en')} rows: the baseline build writes the same rows, in the same order`,
        same.equal,
        `${same.compared.toLocaleString('en')} rows compared, ${same.left.toLocaleString('en')} of recalls only one run was served; ${base.summary} | ${run.summary}`,
      );
    }
    rmSync(baseOut, { force: true });
    if (run) {
      const keys = matchKeys(readFileSync(out, 'utf8'));
      const found = new Set(keys.map((k) => k.split(' ').slice(0, 2).join(' ')));
      claims.check(
        `${size.toLocaleString('en')} rows: every planted row comes back for its recall`,
        planted.size > 0 && [...planted].every((k) => found.has(k)),
        `${[...planted].filter((k) => found.has(k)).length} of ${planted.size}`,
      );
      bySize.set(size, { run, keys });
    }
    const watched = await measureWatch(`match --watch ${size.toLocaleString('en')} rows`, size, file);
    if (watched && run)
      claims.note(
        `${size.toLocaleString('en')} rows, --watch's first poll against the run above: CPU ${ratio(watched.cpu, run.cpu)}, peak RSS ${ratio(watched.rssKB, run.rssKB)}`,
      );
    if (watched && bySize.has(size)) bySize.get(size).watch = watched;
    rmSync(out, { force: true });
    rmSync(file, { force: true });
  }
  console.log(
    table(
      ['run', 'CPU', 'wall', 'CPU vs feed', 'peak RSS', 'load before / after'],
      runs.map((r) => [
        r.label,
        `${r.cpu.toFixed(1)} s`,
        `${r.wall.toFixed(1)} s`,
        feed ? ratio(r.cpu, feed.cpu) : '-',
        mb(r.rssKB * 1024),
        r.load,
      ]),
    ),
  );
  for (const r of runs) if (r.rows > 0) console.log(`${r.label}: ${r.summary}`);
  const small = bySize.get(200_000)?.run;
  const big = bySize.get(2_000_000)?.run;
  for (const r of runs.filter((x) => x.baseline)) {
    const now = runs.find((x) => !x.baseline && !x.watch && x.rows === r.rows);
    if (now)
      claims.note(
        `${r.rows.toLocaleString('en')} rows, this build against the baseline: CPU ${ratio(now.cpu, r.cpu)}, peak RSS ${ratio(now.rssKB, r.rssKB)}`,
      );
  }
  if (small && big) {
    claims.check('2M rows in at most 20 s of CPU', big.cpu <= 20, `${big.cpu.toFixed(1)} s`);
    claims.check(
      'peak memory at 2M rows at most 1.3x that at 200k',
      big.rssKB / small.rssKB <= 1.3,
      `${ratio(big.rssKB, small.rssKB)} (${mb(big.rssKB * 1024)} / ${mb(small.rssKB * 1024)})`,
    );
    claims.check('peak memory at 2M rows under 400 MiB', big.rssKB * 1024 < 400 * 1024 * 1024, mb(big.rssKB * 1024));
  }
  // A watch without actions holds no more than the run above: the first poll of a day's window is its largest.
  const watchSmall = bySize.get(200_000)?.watch;
  const watchBig = bySize.get(2_000_000)?.watch;
  if (watchSmall && watchBig) {
    claims.check(
      "--watch's first poll: peak memory at 2M rows at most 1.3x that at 200k",
      watchBig.rssKB / watchSmall.rssKB <= 1.3,
      `${ratio(watchBig.rssKB, watchSmall.rssKB)} (${mb(watchBig.rssKB * 1024)} / ${mb(watchSmall.rssKB * 1024)})`,
    );
    claims.check(
      "--watch's first poll: peak memory at 2M rows under 400 MiB",
      watchBig.rssKB * 1024 < 400 * 1024 * 1024,
      mb(watchBig.rssKB * 1024),
    );
  }
  const huge = bySize.get(10_000_000)?.run;
  if (huge)
    claims.check(
      '10M rows end to end in at most 2 minutes',
      huge.wall <= 120,
      `${huge.wall.toFixed(1)} s wall, ${huge.cpu.toFixed(1)} s CPU`,
    );
  claims.finish(
    big && small
      ? `2M rows: ${big.cpu.toFixed(1)} s CPU, ${mb(big.rssKB * 1024)} peak (${ratio(big.rssKB, small.rssKB)} of 200k)`
      : 'incomplete',
  );
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
}
