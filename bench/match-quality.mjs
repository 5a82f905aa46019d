// How right `match` is on real agency notices: precision and catalogue-row recall per level and reason, against hand-made truth.
//
// The 346 real notices of test/fixtures/real-notices/recalls.jsonl are served by a loopback sandbox; the built CLI's
// main() runs `match --catalog catalogue.csv -f jsonl` against it in this process (the code path of `match` itself),
// and test/fixtures/real-notices/quality.mjs scores the rows against truth.csv. Claims: issue 25's goals.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Claims, GENEROUS_LIMITS, requireBuild } from './lib/common.mjs';
import {
  CATALOGUE,
  formatReport,
  goalResults,
  intoWindow,
  loadRecalls,
  loadTruth,
  score,
} from '../test/fixtures/real-notices/quality.mjs';

class Collect extends Writable {
  constructor() {
    super({ decodeStrings: false });
    this.text = '';
  }

  _write(chunk, _enc, cb) {
    this.text += String(chunk);
    cb();
  }
}

/** `recall-feed --base-url <sandbox> match --catalog <catalogue> -f jsonl` in process; its rows, stderr and code. */
async function runMatch(main, url, key, dir) {
  const stdout = new Collect();
  const stderr = new Collect();
  const ctx = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    env: { RECALL_FEED_API_KEY: key, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'), HOME: dir, TERM: 'dumb' },
    now: () => Date.now(),
    // Generous limits: the client never paces, so a sleep would be a retry, which the claims below rule out.
    sleep: async () => {},
    signal: new AbortController().signal,
  };
  const code = await main(['--base-url', url, 'match', '--catalog', CATALOGUE, '-f', 'jsonl'], ctx);
  const rows = stdout.text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  return { code, rows, stderr: stderr.text };
}

const claims = new Claims('match-quality');
let sandbox;
const dir = mkdtempSync(path.join(os.tmpdir(), 'recall-feed-bench-match-quality-'));
try {
  requireBuild();
  const { main } = await import('../dist/cli/main.js');
  const { DEMO_KEYS, startSandbox } = await import('../dist/sandbox/index.js');
  const recalls = loadRecalls();
  sandbox = await startSandbox({ port: 0, recordCount: 0, rateLimits: GENEROUS_LIMITS });
  sandbox.addRecords(intoWindow(recalls, Date.now()));
  const { code, rows, stderr } = await runMatch(main, sandbox.url, DEMO_KEYS.all.key, dir);
  const requests = sandbox.requests();
  console.log(`${recalls.length} notices (${new Set(recalls.map((r) => r.data_source)).size} sources), catalogue`);
  console.log(`${path.relative(process.cwd(), CATALOGUE)}; match wrote ${rows.length} rows`);
  console.log(`stderr: ${stderr.trim().split('\n').at(-1) ?? ''}\n`);
  const result = score(rows, loadTruth());
  console.log(formatReport(result));

  claims.check('match exits 0', code === 0, code === 0 ? '' : `exit ${code}: ${stderr.trim().slice(0, 300)}`);
  claims.check(
    'every notice was served and read (one page, answered 200)',
    requests.length === 1 && requests[0].status === 200,
    `${requests.length} requests: ${requests.map((r) => r.status).join(' ')}`,
  );
  claims.check(
    'every match row names a catalogue row of the truth file',
    result.unknownSkus === 0,
    `${result.unknownSkus}`,
  );
  for (const g of goalResults(result)) {
    claims.check(`${g.what} >= ${g.min}`, g.ok, g.value === null ? 'no rows' : g.value.toFixed(3));
  }
  const [m, mp] = result.levels;
  claims.headline = `match precision ${m.precision?.toFixed(2) ?? '-'}, row recall ${m.rowRecall?.toFixed(2) ?? '-'}; match+possible precision ${mp.precision?.toFixed(2) ?? '-'}, row recall ${mp.rowRecall?.toFixed(2) ?? '-'}`;
  claims.finish();
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
}
