// How right `match` is on real agency notices: precision and catalogue-row recall per level and reason, against hand-made truth.
//
// The 346 real notices of test/fixtures/real-notices/recalls.jsonl are served by a loopback sandbox; the built CLI's
// main() runs `match --catalog catalogue.csv -f jsonl` against it in this process (the code path of `match` itself),
// and test/fixtures/real-notices/quality.mjs scores the rows against truth.csv. Claims: issue 25's goals.
// Then, for each corpus (real-notices, real-notices-2 and real-notices-3), `match` runs once per part of its fixed
// split, served only that part's notices, and the held-out table (per agency, tune and holdout side by side, Wilson 95%
// intervals) is printed (test/fixtures/real-notices-2/quality.mjs). Issue 34 reports on `holdout`; tuning looks only
// at `tune`. No corpus may have a wrong `excluded` pair on either part.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Claims, GENEROUS_LIMITS, requireBuild } from './lib/common.mjs';
import { runCliInProcess, runMatchInProcess } from './lib/in-process-match.mjs';
import {
  CATALOGUE,
  formatReport,
  goalResults,
  intoWindow,
  loadRecalls,
  loadTruth,
  score,
} from '../test/fixtures/real-notices/quality.mjs';
import {
  CORPORA,
  corpusFiles,
  formatHeldOut,
  heldOutTable,
  loadRecalls as loadCorpusRecalls,
  loadTruth as loadCorpusTruth,
  loadSplit,
  PARTS,
  rowsOfPart,
  servable,
} from '../test/fixtures/real-notices-2/quality.mjs';

/** `match --catalog <catalogue> -f jsonl` against the sandbox at `url`, in process. */
const runMatch = (main, url, key, dir, catalogue = CATALOGUE, extra = []) =>
  runMatchInProcess(main, url, key, dir, catalogue, extra);

/** The tune notices synced into a fresh archive, and `match --learn` run on it: the learned file, and its aliases. */
async function learnFromTune(main, startSandbox, key, { served, catalogue, dir, name }) {
  const sandbox = await startSandbox({ port: 0, recordCount: 0, rateLimits: GENEROUS_LIMITS });
  try {
    sandbox.addRecords(intoWindow(served, Date.now()));
    const db = path.join(dir, `${name}-tune.db`);
    const file = path.join(dir, `${name}.learned.json`);
    const sync = await runCliInProcess(main, sandbox.url, key, dir, ['sync', '--db', db]);
    const learn = await runCliInProcess(main, sandbox.url, key, dir, [
      'match',
      '--learn',
      '--catalog',
      catalogue,
      '--db',
      db,
      '--learned',
      file,
      '-f',
      'jsonl',
    ]);
    const code = sync.code || learn.code;
    if (code !== 0) return { code, file, aliases: 0 };
    const { aliases } = JSON.parse(readFileSync(file, 'utf8'));
    return { code, file, aliases: Object.values(aliases).reduce((n, b) => n + Object.keys(b).length, 0) };
  } finally {
    await sandbox.close();
  }
}

/** The holdout's `all` lines without and with what was learned, side by side. */
function compareHoldout(plain, learned) {
  const all = (lines) => lines.filter((l) => l.part === 'holdout' && l.agency === 'all');
  const cell = (l) => `precision ${l.right}/${l.pairs}, row recall ${l.rowsFound}/${l.rowsTotal}`;
  const after = new Map(all(learned).map((l) => [l.name, l]));
  return all(plain)
    .map((l) => `  ${l.name.padEnd(15)} without: ${cell(l)}; with: ${cell(after.get(l.name))}`)
    .join('\n');
}

/**
 * The `match` pairs of each part (all agencies) that are not right, by cause: a wrong product; a row whose lot or
 * date the matcher left to verify (its scope `unknown`) and the truth, reading the whole notice, puts out of scope;
 * a row the matcher said was in scope that the truth puts out.
 */
function wrongMatchPairs(lines) {
  return lines
    .filter((l) => l.agency === 'all' && l.name === 'match')
    .map((l) => {
      const verify = l.rightProduct - l.right - l.saidIn;
      return `  ${l.part.padEnd(8)} match pairs not right: ${l.pairs - l.rightProduct} wrong product, ${verify} lot/date left to verify (the truth: out of scope), ${l.saidIn} said in scope (the truth: out)`;
    })
    .join('\n');
}

/**
 * The rows each part's truth counts as affected (row recall's denominator) that `match` did not find at level
 * `match`, by what it said of them instead: `possible` with its reason (the tier that carried it), `excluded`, or
 * nothing at all. Counted, never listed: the holdout's notices are not looked at one by one.
 */
function missedRows(all, truth, split, runs) {
  return PARTS.map((part) => {
    const { skus } = rowsOfPart(truth, split, part);
    const inPart = new Set(all.filter((r) => split.get(r.id) === part).map((r) => r.id));
    const causes = new Map();
    let affected = 0;
    for (const sku of skus) {
      const t = truth.get(sku);
      const ids = new Set([...(t?.ids ?? [])].filter((id) => inPart.has(id)));
      if (!t || ids.size === 0 || t.scope === 'out-of-scope') continue;
      affected++;
      const pairs = (runs[part] ?? []).filter((r) => String(r.sku) === sku && ids.has(Number(r.recall_id)));
      if (pairs.some((r) => r.level === 'match')) continue;
      const possible = pairs.find((r) => r.level === 'possible');
      const cause = possible ? `possible (${possible.reason})` : pairs.length > 0 ? 'excluded' : 'not found';
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
    }
    const listed = [...causes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const text = listed.length === 0 ? 'none' : listed.map(([c, n]) => `${n} ${c}`).join(', ');
    return `  ${part.padEnd(8)} affected rows not found at match (of ${affected}): ${text}`;
  }).join('\n');
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

  // Held-out figures: one run per corpus and part, each served only that part's notices.
  const heldOut = {};
  for (const [name, corpusDir] of Object.entries(CORPORA)) {
    const all = loadCorpusRecalls(corpusDir);
    const split = loadSplit(corpusDir);
    const truth = loadCorpusTruth(corpusDir);
    const runs = {};
    let ok = true;
    for (const part of PARTS) {
      const partSandbox = await startSandbox({ port: 0, recordCount: 0, rateLimits: GENEROUS_LIMITS });
      try {
        const served = all.filter((r) => split.get(r.id) === part);
        partSandbox.addRecords(intoWindow(servable(served), Date.now()));
        const run = await runMatch(main, partSandbox.url, DEMO_KEYS.all.key, dir, corpusFiles(corpusDir).catalogue);
        const unknown = run.rows.filter((r) => !truth.has(String(r.sku))).length;
        const read = Number(/recalls: (\d+)/.exec(run.stderr)?.[1] ?? -1);
        ok &&= run.code === 0 && partSandbox.requests().length === 1 && unknown === 0 && read === served.length;
        runs[part] = run.rows;
      } finally {
        await partSandbox.close();
      }
    }
    claims.check(
      `${name}: on each part, match exits 0 and reads every notice served (one page), and names only truth rows`,
      ok,
      '',
    );
    const lines = heldOutTable(all, truth, split, runs);
    heldOut[name] = lines;
    // The one error a user cannot catch: a row the notice covers, said to be out of its scope.
    const wrongExcluded = lines
      .filter((l) => l.agency === 'all' && l.name === 'excluded')
      .reduce((n, l) => n + l.pairs - l.right, 0);
    claims.check(`${name}: no wrong excluded pair, tune or holdout`, wrongExcluded === 0, String(wrongExcluded));
    console.log(`\n${name}: held-out table (${all.length} notices; tune and holdout each served alone)\n`);
    console.log(formatHeldOut(lines));
    console.log(`\n${wrongMatchPairs(lines)}`);
    console.log(missedRows(all, truth, split, runs));
    // What match --learn learns from the tune notices alone (brand aliases: no case is closed here), used on holdout.
    const learned = await learnFromTune(main, startSandbox, DEMO_KEYS.all.key, {
      served: servable(all.filter((r) => split.get(r.id) === 'tune')),
      catalogue: corpusFiles(corpusDir).catalogue,
      dir,
      name,
    });
    const holdSandbox = await startSandbox({ port: 0, recordCount: 0, rateLimits: GENEROUS_LIMITS });
    try {
      holdSandbox.addRecords(intoWindow(servable(all.filter((r) => split.get(r.id) === 'holdout')), Date.now()));
      const run = await runMatch(main, holdSandbox.url, DEMO_KEYS.all.key, dir, corpusFiles(corpusDir).catalogue, [
        '--learned',
        learned.file,
      ]);
      claims.check(
        `${name}: match --learn on the tune notices, then match --learned on holdout, exit 0`,
        run.code === 0 && learned.code === 0,
        `${learned.code} ${run.code}`,
      );
      const withAliases = heldOutTable(all, truth, split, { holdout: run.rows });
      console.log(
        `\n${name}: holdout with ${learned.aliases} brand aliases learned by match --learn from the tune notices\n`,
      );
      console.log(compareHoldout(lines, withAliases));
    } finally {
      await holdSandbox.close();
    }
  }
  const hold = (name, level) =>
    heldOut[name].find((l) => l.part === 'holdout' && l.agency === 'all' && l.name === level);
  const h2m = hold('real-notices-2', 'match');
  const h2p = hold('real-notices-2', 'match+possible');
  const h3m = hold('real-notices-3', 'match');
  const h3p = hold('real-notices-3', 'match+possible');
  const f = (x) => x?.toFixed(2) ?? '-';
  // The match pairs whose notice concerns the row's product, its lot or date aside (the rest are rows to verify).
  const product = (l) => `${l.rightProduct}/${l.pairs}`;
  claims.headline = `holdout, second corpus: match precision ${h2m.precision?.toFixed(2) ?? '-'} (right product ${product(h2m)}), row recall ${h2m.rowRecall?.toFixed(2) ?? '-'}; match+possible row recall ${h2p.rowRecall?.toFixed(2) ?? '-'}. Third (FSIS): match precision ${f(h3m.precision)} (right product ${product(h3m)}), row recall ${f(h3m.rowRecall)}; match+possible row recall ${f(h3p.rowRecall)}. First corpus, all notices: match precision ${m.precision?.toFixed(2) ?? '-'}, row recall ${m.rowRecall?.toFixed(2) ?? '-'}; match+possible precision ${mp.precision?.toFixed(2) ?? '-'}, row recall ${mp.rowRecall?.toFixed(2) ?? '-'}`;
  claims.finish();
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
}
