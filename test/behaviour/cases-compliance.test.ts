// Cases and the report as an auditor needs them, in process over real HTTP on both engines: the report checks the
// catalogue against the archive, deadlines (--sla) in the chain, bulk steps all or nothing, edits and hostile values.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { tempDir } from '../helpers/temp-dir.js';
import { editArchive, editedCopy } from '../helpers/archive-edit.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { type FakeClock, fakeClock, type runMain, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';

type Rec = Record<string, any>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ESC = '\u001b';

/** The recall's GTIN-like codes (all digits, 8, 12, 13 or 14 of them): lot numbers and ASINs left out. */
const barcodes = (r: Rec): string[] =>
  (r.standard_identifiers_and_barcodes as unknown[])
    .map((x) => (typeof x === 'string' ? x : String((x as Rec).value)))
    .filter((v) => /^(\d{8}|\d{12,14})$/.test(v));
/** A Friday evening: the recalls of the day before are published on Thursday and Friday, due after the weekend. */
const SANDBOX_START = Date.parse('2026-01-16T18:00:00Z');

/** Two working days after `iso`, at the same time: days to add by weekday (Sun..Sat), written out by hand. */
const TWO_WD_OFFSET = [2, 2, 2, 2, 4, 4, 3];
/** Some sources send published_at without an offset: it is UTC. */
const utc = (iso: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
const twoWorkingDays = (iso: string) => {
  const ms = utc(iso);
  return new Date(ms + TWO_WD_OFFSET[new Date(ms).getUTCDay()]! * DAY).toISOString();
};

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const folder = tempFolder('rf-compliance-');
  const catalog = folder.file('products.csv');
  let sandbox: Sandbox;
  let archive: TestArchive;
  let db: string;
  let clock: FakeClock;
  let recalls: Map<number, Rec>;
  /** The pairs `match` reports (sku recall level), computed by the match command, not the report. */
  let pairs: Rec[];
  let refusedSku: string;
  let refusedCode: string;

  /** Each command a minute after the one before, as a person would run them. */
  const run = async (args: string[], opts: Parameters<typeof runMain>[1] = {}) => {
    await clock.sleep(60_000);
    return runMainAgainst(sandbox, args, { clock, ...opts });
  };
  async function ok(args: string[], opts: Parameters<typeof runMain>[1] = {}) {
    const r = await run(args, opts);
    expect(r.code, r.stderr).toBe(0);
    return r;
  }
  const listing = async (args: string[] = []) =>
    jsonLines((await ok(['cases', '--db', db, '--status', 'all', '-f', 'jsonl', ...args])).stdout) as Rec[];
  const reportJson = async (args: string[] = []) =>
    JSON.parse((await ok(['report', '--db', db, '--catalog', catalog, '-f', 'json', ...args])).stdout) as Rec;

  beforeAll(async () => {
    clock = fakeClock(SANDBOX_START + HOUR);
    archive = await testArchive(engine);
    db = archive.db;
    sandbox = await sandboxFor({ seed: 31, recordCount: 150, clock: () => SANDBOX_START });
    await ok(['sync', '--db', db]);
    recalls = new Map(sandbox.records().map((r) => [r.id, r as Rec]));
    // Only what the sync stored: the report and match read the archive.
    const stored = new Set((await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((r) => Number(r.id)));
    const kept = sandbox.records().filter((r) => stored.has(r.id));
    const withCodes = kept.filter((r) => barcodes(r).length > 0);
    const models = kept.filter((r) => r.product_model_numbers.length > 0 && r.product_brand);
    const withModel = models[0]!;

    const lines = ['sku,gtin,brand,model,name'];
    for (const [i, r] of withCodes.slice(0, 20).entries()) lines.push(`P${i},${barcodes(r)[0]},,,Product ${i}`);
    lines.push(`PM,,"${withModel.product_brand}",${withModel.product_model_numbers[0]},Model product`);
    // Model numbers alone (no brand): possibles.
    for (const [i, r] of models.slice(1, 4).entries())
      lines.push(`PP${i},,,${r.product_model_numbers[0]},Model alone ${i}`);
    // A barcode with its check digit changed: refused, never matched, never counted usable.
    const good = barcodes(withCodes.at(-1)!).find((b) => /^\d{13}$/.test(b)) ?? '4006381333931';
    refusedCode = `${good.slice(0, 12)}${(Number(good.at(-1)) + 1) % 10}`;
    refusedSku = 'PX';
    lines.push(`PX,${refusedCode},,,Refused code`);
    lines.push('PZ,,Nobrand,,Nothing at all');
    writeFileSync(catalog, `${lines.join('\n')}\n`);
    const matched = await ok(['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl']);
    pairs = jsonLines(matched.stdout) as Rec[];
    expect(pairs.filter((p) => p.level === 'match').length).toBeGreaterThanOrEqual(4);
    expect(pairs.filter((p) => p.level === 'possible').length).toBeGreaterThanOrEqual(2);
  });

  it('#24.2: before any case is opened, the report lists every match without a case and is incomplete', async () => {
    const data = await reportJson();
    const found = data.coverage.catalogue.matches_without_case.map((m: Rec) => `${m.catalog_key} ${m.recall_id}`);
    expect(new Set(found)).toEqual(new Set(pairs.map((p) => `sku:${p.sku} ${p.recall_id}`)));
    expect(data.statement.incomplete).toBe(true);
    expect(data.statement.text).not.toMatch(/any of the/);
    const matchingRows = new Set(pairs.map((p) => p.sku)).size;
    expect(data.statement.rows_without_match).toBe(data.coverage.catalogue.rows - matchingRows);
    expect(data.statement.text).toContain('no case');
    // The refused barcode is listed, and not counted usable.
    const { refused, rows, with_identifier } = data.coverage.catalogue;
    expect(refused).toContainEqual(expect.objectContaining({ catalog_key: `sku:${refusedSku}`, value: refusedCode }));
    expect(with_identifier).toBeLessThanOrEqual(rows - refused.length);
  });

  it('--level match opens only matches; --sla 2wd puts due_at two working days after published_at', async () => {
    // On a terminal, where match says what it opened.
    const r = await ok(
      [
        'match',
        '--catalog',
        catalog,
        '--archive',
        '--db',
        db,
        '--open-cases',
        '--level',
        'match',
        '--sla',
        '2wd',
        '-f',
        'jsonl',
      ],
      { stderrIsTTY: true },
    );
    const matches = pairs.filter((p) => p.level === 'match');
    expect(r.stderr).toContain(`cases: ${matches.length} opened`);
    const cases = await listing();
    expect(cases.map((c) => c.level)).toEqual(matches.map(() => 'match'));
    let acrossWeekend = 0;
    for (const c of cases) {
      const published = recalls.get(c.recall_id)!.published_at as string;
      expect(c.due_at).toBe(twoWorkingDays(published));
      expect(c.sla).toBe('2wd');
      if ([0, 4, 5, 6].includes(new Date(utc(published)).getUTCDay())) acrossWeekend++;
      expect(c.product_name).toMatch(/^(Product \d+|Model product|Model alone \d)$/);
      expect(c.risk_severity).toBe(recalls.get(c.recall_id)!.risk_severity ?? null);
    }
    expect(acrossWeekend).toBeGreaterThan(0);
    // The possibles are without a case by choice (level match): listed as not opened, not as a case missing.
    const data = await reportJson();
    expect(data.coverage.catalogue.case_levels).toEqual(['match']);
    expect(data.coverage.catalogue.matches_without_case).toEqual([]);
    expect(data.coverage.catalogue.not_opened.map((m: Rec) => m.level)).toEqual(
      pairs.filter((p) => p.level === 'possible').map(() => 'possible'),
    );
    expect(data.statement.text).toContain('not opened (level match chosen)');
    expect(data.statement.incomplete).toBe(data.verdict.state !== 'complete');
    // Then the possibles too (the default: both levels): the statement is complete.
    await ok(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases', '-f', 'jsonl']);
    const after = await reportJson();
    expect(after.coverage.catalogue.matches_without_case).toEqual([]);
    expect(after.coverage.catalogue.not_opened).toEqual([]);
    expect(after.coverage.catalogue.case_levels).toEqual(['match', 'possible']);
    expect(after.statement.text).toMatch(/^No match was found for the other \d+ rows as of /);
    expect(after.statement.incomplete).toBe(false);
  });

  it('the case-sla setting gives the deadline when --sla is not given', async () => {
    const config = { RECALL_FEED_CONFIG_DIR: tempDir('rf-sla-config-') };
    const set = await run(['config', 'set', 'case-sla', '24h'], { env: config });
    expect(set.code, set.stderr).toBe(0);
    // A copy without cases: the same pairs open again, under the setting.
    const { db: copy } = await editedCopy(archive);
    const edited = { ...archive, db: copy };
    await editArchive(edited, 'DELETE FROM case_events');
    await editArchive(edited, 'DELETE FROM cases');
    const r = await run(['match', '--catalog', catalog, '--archive', '--db', copy, '--open-cases', '-f', 'jsonl'], {
      env: config,
    });
    expect(r.code, r.stderr).toBe(0);
    const cases = jsonLines(
      (await run(['cases', '--db', copy, '--status', 'all', '-f', 'jsonl'], { env: config })).stdout,
    ) as Rec[];
    expect(cases.length).toBe(pairs.length);
    for (const c of cases) {
      expect(c.sla).toBe('24h');
      expect(c.due_at).toBe(new Date(utc(recalls.get(c.recall_id)!.published_at) + DAY).toISOString());
    }
  });

  it('cases --overdue lists the open and waiting cases past due, and only those', async () => {
    const cases = (await listing()).filter((c) => c.due_at !== null);
    expect(cases.length).toBeGreaterThan(0);
    const dues = cases.map((c) => Date.parse(c.due_at)).sort((a, b) => a - b);
    const before = fakeClock(dues[0]! - 1);
    const none = await runMainAgainst(sandbox, ['cases', '--db', db, '--overdue', '-f', 'jsonl'], { clock: before });
    expect(none.stdout).toBe('');
    const after = fakeClock(dues.at(-1)! + 1);
    const all = await runMainAgainst(sandbox, ['cases', '--db', db, '--overdue', '-f', 'jsonl'], { clock: after });
    expect(new Set(jsonLines(all.stdout).map((c) => c.id))).toEqual(new Set(cases.map((c) => c.id)));
  });

  it('cases --due-soon lists the open and waiting cases due by the end of the next working day, overdue ones too', async () => {
    const cases = (await listing()).filter((c) => c.due_at !== null);
    const dues = cases.map((c) => Date.parse(c.due_at)).sort((a, b) => a - b);
    // The end of the next working day (Monday to Friday, UTC) after `now`'s day, as docs/cases.md words it.
    const windowEnd = (now: number) => {
      const day = new Date(now);
      day.setUTCHours(0, 0, 0, 0);
      do day.setUTCDate(day.getUTCDate() + 1);
      while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
      return day.getTime() + DAY;
    };
    const ids = (r: { stdout: string }) => new Set(jsonLines(r.stdout).map((c) => c.id));
    // Two days before the first due time, a week after it, and after the last: none, some or all in the window.
    for (const now of [dues[0]! - 2 * DAY, dues[0]! + 7 * DAY, dues.at(-1)! + 1]) {
      const want = cases.filter((c) => Date.parse(c.due_at) < windowEnd(now)).map((c) => c.id);
      const r = await runMainAgainst(sandbox, ['cases', '--db', db, '--due-soon', '-f', 'jsonl'], {
        clock: fakeClock(now),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r)).toEqual(new Set(want));
      // With --overdue as well: the overdue ones alone.
      const late = await runMainAgainst(sandbox, ['cases', '--db', db, '--due-soon', '--overdue', '-f', 'jsonl'], {
        clock: fakeClock(now),
      });
      expect(ids(late)).toEqual(new Set(cases.filter((c) => Date.parse(c.due_at) < now).map((c) => c.id)));
    }
  });

  it('#24.25: bulk resolve of several ids is all or nothing, one event each; show takes several ids', async () => {
    const cases = await listing();
    const [a, b, c] = cases;
    const events = async () => (await archive.rows<Rec>('SELECT count(*) AS n FROM case_events'))[0]!.n;
    const n = Number(await events());
    const bad = await run(['cases', 'resolve', String(a!.id), '99999', '--as', 'false-positive', '--db', db]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('no case 99999')]);
    expect(Number(await events())).toBe(n);
    await ok(['cases', 'resolve', String(a!.id), String(b!.id), '--as', 'not-our-product', '--db', db, '-f', 'jsonl']);
    expect(Number(await events())).toBe(n + 2);
    const shown = jsonLines(
      (await ok(['cases', 'show', String(a!.id), String(b!.id), '--db', db, '-f', 'jsonl'])).stdout,
    );
    expect(shown.map((s) => [s.id, s.status, s.outcome])).toEqual([
      [a!.id, 'closed', 'not-our-product'],
      [b!.id, 'closed', 'not-our-product'],
    ]);
    // A case the step does not fit (already closed) refuses the whole step too.
    const closed = await run(['cases', 'wait', String(c!.id), String(a!.id), '--db', db]);
    expect(closed.code).toBe(2);
    expect(Number(await events())).toBe(n + 2);
    // On a terminal a bulk step asks; "n" changes nothing, --yes does not ask.
    const tty = { stdinIsTTY: true, stderrIsTTY: true };
    const no = await run(['cases', 'wait', '--level', 'possible', '--db', db], { ...tty, stdin: 'n\n' });
    expect(no.code).toBe(0);
    expect(no.stderr).toMatch(/wait \d+ cases .*\? \[y\/N\]/);
    expect(Number(await events())).toBe(n + 2);
    const possibles = cases.filter((x) => x.level === 'possible');
    const yes = await run(['cases', 'wait', '--level', 'possible', '--yes', '--db', db, '-f', 'jsonl'], tty);
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toContain('[y/N]');
    expect(Number(await events())).toBe(n + 2 + possibles.length);
    expect((await listing(['--status', 'waiting'])).map((x) => x.id).sort()).toEqual(possibles.map((x) => x.id).sort());
  });

  it('#26: the report: summary first, per-case numbers, recall facts, time to action, provenance', async () => {
    const cases = await listing();
    const data = await reportJson();
    // Matches first, then possibles.
    const levels = data.cases.map((c: Rec) => c.level);
    expect(levels).toEqual([...levels].sort((x: string, y: string) => (x === y ? 0 : x === 'match' ? -1 : 1)));
    for (const c of data.cases) {
      expect(c.events.map((e: Rec) => e.number)).toEqual(c.events.map((_: Rec, i: number) => i + 1));
      const listed = cases.find((x) => x.id === c.id)!;
      expect(c.events.map((e: Rec) => e.seq)).toEqual(listed.events.map((e: Rec) => e.seq));
      const recall = recalls.get(c.recall_id)!;
      expect(c.recall).toEqual({
        risk_severity: recall.risk_severity ?? null,
        hazard: recall.hazard_description || null,
        source_url: recall.source_url || null,
        published_at: recall.published_at,
      });
    }
    // Time to action: hours from published_at to the resolve, computed here.
    const closed = data.cases.filter((c: Rec) => c.status === 'closed');
    const hours = closed
      .map((c: Rec) => {
        const at = c.events.findLast((e: Rec) => e.action === 'resolved').at;
        return Math.round(((Date.parse(at) - utc(recalls.get(c.recall_id)!.published_at)) / HOUR) * 10) / 10;
      })
      .sort((x: number, y: number) => x - y);
    expect(data.summary.time_to_action.closed).toBe(hours.length);
    expect(hours.length).toBeGreaterThan(0);
    expect(data.summary.time_to_action.p90_hours).toBe(hours[Math.ceil(0.9 * hours.length) - 1]);
    const inTime = closed.filter((c: Rec) => Date.parse(c.closed_at) <= Date.parse(c.due_at)).length;
    expect(data.summary.time_to_action.closed_within_sla).toBe(inTime);
    // Overdue: not closed and due before the period's end, counted here.
    const until = Date.parse(data.period.until);
    const overdue = data.cases.filter(
      (c: Rec) => c.status !== 'closed' && c.due_at !== null && Date.parse(c.due_at) < until,
    ).length;
    expect(data.summary.overdue).toBe(overdue);
    // Provenance: version, archive without a password, the catalogue's checksum, the chain head.
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const head = JSON.parse((await ok(['cases', 'verify', '--db', db, '-f', 'json'])).stdout).head;
    expect(data.provenance).toEqual({
      tool: 'recall-feed',
      version: pkg.version,
      archive: archive.name,
      catalogue: { file: 'products.csv', sha256: createHash('sha256').update(readFileSync(catalog)).digest('hex') },
      chain_head: head,
    });
    expect(JSON.stringify(data.provenance)).not.toContain(':secret');
    // Readable times in the page.
    const html = (await ok(['report', '--db', db, '--catalog', catalog, '-f', 'html'])).stdout;
    expect(html.indexOf('class="summary"')).toBeLessThan(html.indexOf('class="statement'));
    expect(html).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(html).not.toMatch(/<script/i);
  });

  it('#24.10: an edited title, opened_at or updated_at breaks verify, and the report keeps the events’ values', async () => {
    const [c] = await listing();
    for (const set of [
      "alert_title = 'edited title'",
      "opened_at = '2020-01-01T00:00:00.000Z'",
      "updated_at = '2020-01-02T00:00:00.000Z'",
    ]) {
      const { db: copy } = await editedCopy(archive, `UPDATE cases SET ${set} WHERE id = ${c!.id}`);
      const verify = await run(['cases', 'verify', '--db', copy]);
      expect([verify.code, verify.stderr]).toEqual([12, expect.stringContaining(`case ${c!.id}`)]);
      const data = JSON.parse((await run(['report', '--db', copy, '--catalog', catalog, '-f', 'json'])).stdout) as Rec;
      const shown = data.cases.find((x: Rec) => x.id === c!.id);
      expect([shown.alert_title, shown.opened_at, shown.updated_at]).toEqual([
        c!.alert_title,
        c!.opened_at,
        c!.updated_at,
      ]);
    }
  });

  it('#24.11: hostile values from the archive stay text in the HTML and off the terminal', async () => {
    const [c] = await listing();
    const hostile = `<script>alert(1)</script>${ESC}[31m`;
    const { db: copy } = await editedCopy(archive);
    const edited = { ...archive, db: copy };
    if (engine === 'sqlite') {
      await editArchive(edited, 'UPDATE cases SET level = ?, reason = ? WHERE id = ?', [hostile, hostile, c!.id]);
      await editArchive(edited, 'UPDATE case_events SET action = ?, actor = ? WHERE case_id = ?', [
        hostile,
        hostile,
        c!.id,
      ]);
      // SQLite's INTEGER column takes text: the recall id itself can be made hostile there.
      await editArchive(edited, 'UPDATE cases SET recall_id = ? WHERE id = ?', [hostile, c!.id]);
    } else {
      await editArchive(edited, 'UPDATE cases SET level = $1, reason = $1 WHERE id = $2', [hostile, c!.id]);
      await editArchive(edited, 'UPDATE case_events SET action = $1, actor = $1 WHERE case_id = $2', [hostile, c!.id]);
    }
    const show = await run(['cases', 'show', String(c!.id), '--db', copy, '-f', 'table']);
    expect(show.stdout).toContain('alert(1)');
    expect(show.stdout).not.toContain(ESC);
    const html = (await run(['report', '--db', copy, '--catalog', catalog, '-f', 'html'])).stdout;
    expect(html).toContain('alert(1)');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain(ESC);
  });

  it('#24.21: the cases table never cuts a header, however narrow the terminal', async () => {
    let tables = 0;
    for (const columns of [120, 100, 80]) {
      const r = await run(['cases', '--db', db, '--status', 'all'], { stdoutIsTTY: true, columns });
      const [header] = r.stdout.split('\n');
      expect(r.stdout).not.toBe('');
      if (!/^id {2}/.test(header!)) continue; // too narrow for whole headers: one block per case instead
      tables++;
      expect(header).not.toContain('…');
      for (const name of [
        'id',
        'status',
        'level',
        'risk_severity',
        'catalog_key',
        'product_name',
        'recall_id',
        'due_at',
      ])
        expect(header!.split(/\s+/)).toContain(name);
    }
    expect(tables).toBeGreaterThan(0);
  });
});
