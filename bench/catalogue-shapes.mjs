// Catalogue shapes: a CSV whose every data row ends with a delimiter the header lacks (an ERP export that
// docs/matching.md accepts) costs what the same rows without it cost, held whole and streamed, also when its first row
// is shifted (a comma in an unquoted name); ratios side by side.
//
// csv-parse builds an error (a stack trace, a copy of its state) for every record of another count of cells than the
// first it parses, relax_column_count or not: while that first record was the header, every row of such an export cost
// one (src/match/catalogue-csv-lead.ts).
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_KEYS, startSandbox } from '../dist/sandbox/index.js';
import { Claims, cleanEnv, mb, median, ratio, requireBuild, runCliMeasured, table, tempDir } from './lib/common.mjs';
import { gtin13, rng } from './lib/generate.mjs';

const ROUNDS = 5;
const WARMUP = 1;
const LIMIT = 1.3;
/** match streams a catalogue of this many bytes or more (STREAM_FROM_BYTES, src/jobs/match/stream-match.ts). */
const STREAM_FROM_BYTES = 8 * 1024 * 1024;
/** One catalogue indexed whole and one streamed, each written in every shape. */
const PATHS = [
  { name: 'held whole', rows: 120_000, streamed: false },
  { name: 'streamed', rows: 200_000, streamed: true },
];
/** The same rows: plain, each ending with a delimiter, and so after a first row with one cell more (no recall's). */
const SHAPES = [
  { name: 'plain', end: '\n', first: '' },
  { name: 'trailing', end: ',\n', first: '' },
  { name: 'trailing, first row shifted', end: ',\n', first: 'X0,,Odd, name,LX,\n' },
];

/**
 * Each jsonl match row as `sku recall_id`, sorted: the pairs found, which the shapes must share. Not the level: a row
 * ending with a delimiter is never excluded by its lot (a shifted row looks the same), so it may be a match to verify
 * where the plain row is excluded.
 */
const matchKeys = (jsonl) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map((row) => `${row.sku} ${row.recall_id}`)
    .sort();

const claims = new Claims('catalogue-shapes');
let sandbox;
try {
  requireBuild();
  const dir = tempDir('catalogue-shapes');
  sandbox = await startSandbox({ port: 0, recordCount: 300, seed: 11 });
  const key = DEMO_KEYS.all.key;
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'), RECALL_FEED_API_KEY: key });
  // Barcodes of the newest recalls, planted one row in a thousand, so both shapes must find the same matches.
  const page = await (
    await fetch(`${sandbox.url}/v1/recalls/feed?limit=100`, { headers: { 'x-api-key': key } })
  ).json();
  const codes = page.data.flatMap((r) =>
    r.standard_identifiers_and_barcodes.filter((x) => /^\d{12,13}$/.test(x.value)).map((x) => x.value),
  );
  const rand = rng(5);
  const files = {};
  for (const p of PATHS) {
    const rows = Array.from({ length: p.rows }, (_, i) => {
      const ean =
        i % 1000 === 0 && codes.length > 0 ? codes[(i / 1000) % codes.length] : gtin13(`4${i}`.padEnd(12, '7'));
      return `S${i},${rand() < 0.2 ? '' : ean},Product number ${i} with words,L${i}`;
    });
    for (const [k, shape] of SHAPES.entries()) {
      const file = path.join(dir, `${p.rows}-${k}.csv`);
      writeFileSync(file, `sku,ean,name,lot\n${shape.first}${rows.join(shape.end)}${shape.end}`);
      files[`${p.name} ${shape.name}`] = file;
    }
    const size = statSync(files[`${p.name} plain`]).size;
    claims.check(
      `the ${p.name} catalogue is ${p.streamed ? 'at least' : 'under'} match's streaming size (8 MiB)`,
      p.streamed === size >= STREAM_FROM_BYTES,
      mb(size),
    );
  }

  const runs = Object.fromEntries(Object.keys(files).map((k) => [k, { cpu: [], wall: [], rssKB: [], found: '' }]));
  const out = path.join(dir, 'out.jsonl');
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Interleaved, the order turned each round: the machine's load drifts.
    const labels = Object.keys(files);
    for (const label of round % 2 ? labels.reverse() : labels) {
      const res = await runCliMeasured(
        ['match', '--base-url', sandbox.url, '--catalog', files[label], '-v', '-f', 'jsonl', '-o', out],
        { env, timeoutMs: 120_000, dir },
      );
      const rows = PATHS.find((p) => label.startsWith(p.name)).rows + (label.endsWith('shifted') ? 1 : 0);
      const said = res.stderr.includes(`catalogue: ${rows.toLocaleString('en-US')} rows`);
      if (res.code !== 0 || !res.usage || !said)
        throw new Error(`${label} exited ${res.code} or did not count its rows: ${res.stderr.trim().slice(-300)}`);
      const found = matchKeys(readFileSync(out, 'utf8')).join('\n');
      rmSync(out, { force: true });
      runs[label].found = found;
      if (round < WARMUP) continue;
      runs[label].cpu.push((res.usage.userUs + res.usage.systemUs) / 1000);
      runs[label].wall.push(res.ms);
      runs[label].rssKB.push(res.usage.maxRssKB);
    }
  }

  const m = (label, what) => median(runs[label][what]);
  console.log(
    table(
      ['catalogue', 'CPU (median)', 'wall (median)', 'peak RSS (median)', 'CPU vs plain', 'matches'],
      Object.keys(files).map((label) => {
        const plain = `${PATHS.find((p) => label.startsWith(p.name)).name} plain`;
        return [
          label,
          `${(m(label, 'cpu') / 1000).toFixed(2)} s`,
          `${(m(label, 'wall') / 1000).toFixed(2)} s`,
          mb(m(label, 'rssKB') * 1024),
          ratio(m(label, 'cpu'), m(plain, 'cpu')),
          runs[label].found.split('\n').filter(Boolean).length,
        ];
      }),
    ),
  );
  const headline = [];
  for (const p of PATHS) {
    const plain = `${p.name} plain`;
    for (const shape of SHAPES.slice(1)) {
      const label = `${p.name} ${shape.name}`;
      const cpu = m(label, 'cpu') / m(plain, 'cpu');
      const wall = m(label, 'wall') / m(plain, 'wall');
      claims.check(
        `${p.name}, ${p.rows.toLocaleString('en-US')} rows, ${shape.name}: at most ${LIMIT}x the plain rows' CPU`,
        cpu <= LIMIT,
        `${cpu.toFixed(2)}x CPU, ${wall.toFixed(2)}x wall`,
      );
      claims.check(
        `${p.name}, ${shape.name}: the same matches as the plain rows, and some`,
        runs[plain].found !== '' && runs[plain].found === runs[label].found,
        `${runs[plain].found.split('\n').filter(Boolean).length} and ${runs[label].found.split('\n').filter(Boolean).length}`,
      );
      headline.push(`${p.name}, ${shape.name} ${cpu.toFixed(2)}x`);
    }
  }
  claims.finish(`CPU against plain rows: ${headline.join('; ')}`);
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
}
