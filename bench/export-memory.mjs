// Peak RSS of `feed -o <file>` at 100k records against 10k records, per format: a streaming export stays flat.
import { createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  Claims,
  cleanEnv,
  GENEROUS_LIMITS,
  mb,
  ratio,
  requireBuild,
  runCliMeasured,
  table,
  tempDir,
} from './lib/common.mjs';

const RECORDS = 100_000;
const SMALL = 10_000;
const FORMATS = ['jsonl', 'csv', 'json'];
/** Peak RSS at 10× the records may grow by less than half: what grows is the output, not the process. */
const FLAT_LIMIT = 1.5;
const RUN_TIMEOUT_MS = 150_000;

/** Ids of a JSON Lines file, one per line. */
async function jsonlIds(file) {
  const ids = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') ids.push(JSON.parse(line).id);
  return ids;
}

/** Ids of a JSON array file: the whole document must parse. */
function jsonIds(file) {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(doc)) throw new Error(`${file} is not a JSON array`);
  return doc.map((r) => r.id);
}

/** Ids (first column) of a CSV file, RFC 4180 quoting, header skipped; a small state machine over the stream. */
async function csvIds(file) {
  const ids = [];
  let inQuotes = false;
  let field = 0;
  let first = '';
  let header;
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (ch === '"')
        inQuotes = !inQuotes; // an escaped "" toggles twice
      else if (inQuotes) {
        if (field === 0) first += ch;
      } else if (ch === ',') field++;
      else if (ch === '\n') {
        if (header === undefined) header = first;
        else ids.push(Number(first));
        field = 0;
        first = '';
      } else if (ch !== '\r' && field === 0) first += ch;
    }
  }
  if (header !== 'id' && header !== '\ufeffid')
    throw new Error(`${file}: first header cell is ${JSON.stringify(header)}, not id`);
  if (inQuotes || first !== '') throw new Error(`${file}: ends inside a record`);
  return ids;
}

const readIds = { jsonl: jsonlIds, json: jsonIds, csv: csvIds };

const claims = new Claims('export-memory');
let sandbox;
try {
  requireBuild();
  const { startSandbox, DEMO_KEYS } = await import('../dist/sandbox/index.js');
  const dir = tempDir('export');
  const env = cleanEnv({
    HOME: dir,
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    RECALL_FEED_API_KEY: DEMO_KEYS.all.key,
  });
  const t0 = performance.now();
  sandbox = await startSandbox({ port: 0, recordCount: RECORDS, rateLimits: GENEROUS_LIMITS });
  console.log(
    `sandbox with ${RECORDS.toLocaleString('en-US')} records ready in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${sandbox.url}`,
  );

  // The floor: a process that loads the CLI and prints its help.
  const help = await runCliMeasured(['--help'], { env, timeoutMs: 30_000, dir });
  const floorKB = help.usage?.maxRssKB ?? NaN;

  const results = {};
  for (const format of FORMATS) {
    for (const n of [SMALL, RECORDS]) {
      const out = path.join(dir, `out.${format}`);
      const args = [
        'feed',
        '--base-url',
        sandbox.url,
        '-f',
        format,
        '-o',
        out,
        ...(n === RECORDS ? [] : ['--max', String(n)]),
      ];
      sandbox.clearRequests();
      const res = await runCliMeasured(args, { env, timeoutMs: RUN_TIMEOUT_MS, dir });
      const requests = sandbox.requests().length;
      sandbox.clearRequests();
      const label = `${format} ${n.toLocaleString('en-US')}`;
      if (
        !claims.check(
          `${label}: exit 0`,
          res.code === 0 && res.usage,
          res.code === 0 ? '' : `exit ${res.code}: ${res.stderr.trim().slice(0, 300)}`,
        )
      ) {
        continue;
      }
      const bytes = statSync(out).size;
      const ids = await readIds[format](out);
      rmSync(out, { force: true });
      const unique = new Set(ids).size;
      claims.check(
        `${label}: the file holds ${n} records, each once`,
        ids.length === n && unique === n,
        `${ids.length} records, ${unique} distinct ids`,
      );
      results[`${format}/${n}`] = {
        rssKB: res.usage.maxRssKB,
        cpuMs: (res.usage.userUs + res.usage.systemUs) / 1000,
        ms: res.ms,
        bytes,
        requests,
      };
    }
  }

  const rows = [];
  const headline = [];
  const base = results[`jsonl/${RECORDS}`];
  for (const format of FORMATS) {
    const small = results[`${format}/${SMALL}`];
    const big = results[`${format}/${RECORDS}`];
    if (!small || !big) continue;
    const growth = big.rssKB / small.rssKB;
    rows.push([
      format,
      mb(small.rssKB * 1024),
      mb(big.rssKB * 1024),
      ratio(big.rssKB, small.rssKB),
      mb(big.bytes),
      big.requests,
      base ? ratio(RECORDS / big.ms, RECORDS / base.ms) : '-',
      base ? ratio(big.cpuMs, base.cpuMs) : '-',
    ]);
    headline.push(`${format} ${ratio(big.rssKB, small.rssKB)}`);
    claims.check(
      `${format}: peak RSS at 100k records < ${FLAT_LIMIT}× that at 10k`,
      growth < FLAT_LIMIT,
      `${mb(small.rssKB * 1024)} -> ${mb(big.rssKB * 1024)}, ${ratio(big.rssKB, small.rssKB)}`,
    );
  }
  console.log(`\npeak RSS of the CLI process (getrusage maxrss); floor: \`--help\` peaks at ${mb(floorKB * 1024)}`);
  console.log(
    table(
      [
        'format',
        'peak 10k',
        'peak 100k',
        '100k/10k',
        'file 100k',
        'requests',
        'records/s vs jsonl',
        'CLI CPU vs jsonl',
      ],
      rows,
    ),
  );
  console.log(
    'records/s is wall time and includes the in-process sandbox answering every page on the same 2 cores;\n' +
      'CLI CPU (user+sys of the CLI process alone) isolates what the format itself costs.',
  );
  claims.finish(`peak RSS 100k/10k: ${headline.join(', ')}`);
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
}
