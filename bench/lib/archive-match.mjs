// archive-scale's match figure: a daily incremental `match --archive` of a 100,000-row catalogue after a small sync, beside a --full run of the same archive.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv, median, ratio, runCliMeasured } from './common.mjs';
import { gtin13, rng, word, writeCsv } from './generate.mjs';

export const CATALOGUE_ROWS = Number(process.env.BENCH_CATALOGUE_ROWS ?? 100_000);
/** A day's sync: new recalls, and new versions of recalls stored before. */
export const DAILY_NEW = 1000;
export const DAILY_UPDATED = 100;
const RUN_TIMEOUT_MS = 1_800_000;

/** The barcode of recall `j`, or of the next one that has one. */
function barcodeOf(recall, j) {
  for (let k = j; k < j + 50; k++) {
    const ids = recall(k).standard_identifiers_and_barcodes.map((x) => (typeof x === 'string' ? x : x.value));
    const code = ids.find((v) => /^\d{12,13}$/.test(v));
    if (code) return code;
  }
  return undefined;
}

/**
 * `rows` rows: one in 200 names a recall of `recall(j)` (j over the archive and the days to come) by its barcode
 * (the generator's barcodes are its own, while its 20 brands and 256 product names recur: a row naming one would match
 * thousands of recalls, as no real catalogue does); the rest invented from syllables (brands, names, a barcode in 70%).
 */
export async function writeCatalogue(file, rows, recall, recalls) {
  const rand = rng(rows);
  const lines = function* () {
    for (let i = 0; i < rows; i++) {
      let row;
      const code = i % 200 === 0 ? barcodeOf(recall, Math.floor(rand() * recalls)) : undefined;
      if (code) row = [`S${i}`, code, '', '', '', ''];
      else {
        const name = Array.from({ length: 2 + Math.floor(rand() * 4) }, () => word(rand, 2 + Math.floor(rand() * 2)));
        const gtin = rand() < 0.7 ? gtin13(`4${String(Math.floor(rand() * 1e11)).padStart(11, '0')}`) : '';
        row = [`S${i}`, gtin, word(rand, 3), rand() < 0.3 ? `M${Math.floor(rand() * 1e7)}` : '', name.join(' '), ''];
      }
      yield row;
    }
  };
  await writeCsv(file, ['sku', 'gtin', 'brand', 'model', 'name', 'lot'], lines());
}

/**
 * `rounds` days on one archive: each a sync of DAILY_NEW new recalls and DAILY_UPDATED new versions (through the
 * store), then `match --archive` (incremental: the state of the day before) and `match --archive --full`, both timed
 * as children of their own, their outputs compared byte for byte. The first --full run writes the first state.
 */
export async function incrementalMatchFigure({ engine, db, open, recall, records, rounds, dir, claims, load }) {
  const catalog = path.join(dir, `catalogue-${engine}.csv`);
  await writeCatalogue(catalog, CATALOGUE_ROWS, recall, records + rounds * DAILY_NEW);
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CACHE_DIR: path.join(dir, `cache-${engine}`) });
  const match = async (name, extra) => {
    const out = path.join(dir, `${name}-${engine}.jsonl`);
    // -v: off a terminal, match says what it checked (the claim below reads it) only when asked.
    const args = ['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl', '-o', out, '-v', ...extra];
    const res = await runCliMeasured(args, { env, timeoutMs: RUN_TIMEOUT_MS, dir });
    if (res.code !== 0) throw new Error(`${name} match exited ${res.code}: ${res.stderr}`);
    return { ...res, out: readFileSync(out, 'utf8'), note: res.stderr.match(/match --archive: [^\n]*/)?.[0] };
  };
  const first = await match('first', ['--full']);
  console.log(
    `  ${engine}: first --full match of ${CATALOGUE_ROWS} rows in ${(first.ms / 1000).toFixed(1)} s (load ${load()})`,
  );
  const incremental = [];
  const full = [];
  for (let day = 0; day < rounds; day++) {
    const writer = await open();
    const runId = await writer.beginRun({ bench: 'daily' }, Date.now());
    const base = records + day * DAILY_NEW;
    const page = Array.from({ length: DAILY_NEW }, (_, k) => recall(base + k));
    for (let k = 0; k < DAILY_UPDATED; k++) {
      const old = recall(Math.floor((k * records) / DAILY_UPDATED));
      page.push({ ...old, alert_title: `${old.alert_title} (mise à jour ${day})` });
    }
    await writer.upsertPage(page, runId);
    await writer.finishRun(runId, 'ok', Date.now());
    await writer.close();
    const inc = await match('incremental', []);
    const whole = await match('full', ['--full']);
    claims.check(
      `${engine}, day ${day + 1}: the incremental run says it checked only the day's recalls`,
      inc.note?.includes(`checked ${DAILY_NEW + DAILY_UPDATED} recalls`),
      inc.note ?? inc.stderr.slice(-300),
    );
    claims.check(
      `${engine}, day ${day + 1}: the incremental output is the --full run's, byte for byte`,
      inc.out === whole.out && inc.out.length > 0,
      `${inc.out.split('\n').length - 1} rows`,
    );
    incremental.push(inc);
    full.push(whole);
    console.log(
      `  ${engine}, day ${day + 1}: incremental ${(inc.ms / 1000).toFixed(2)} s, --full ${(whole.ms / 1000).toFixed(1)} s, ${inc.out.split('\n').length - 1} rows (load ${load()})`,
    );
  }
  const ms = median(incremental.map((r) => r.ms));
  const base = median(full.map((r) => r.ms));
  const cpu = (r) => (r.usage ? (r.usage.userUs + r.usage.systemUs) / 1e6 : Number.NaN);
  return {
    ms,
    base,
    cpu: median(incremental.map(cpu)),
    fullCpu: median(full.map(cpu)),
    rssMB: median(incremental.map((r) => (r.usage?.maxRssKB ?? Number.NaN) / 1024)),
    ratio: ratio(ms, base),
  };
}
