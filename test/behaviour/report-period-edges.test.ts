// The report's and the digest's period at its edges: the end is never after now and includes now (a pinned clock
// stamps everything at exactly now), the verdict names sources no sync of the period covered, "as of" is when the
// last sync began fetching, and a broken case log has no head.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { editArchive } from '../helpers/archive-edit.js';
import { testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const PIN = '2026-06-01T12:00:00.000Z';
const PIN_MS = Date.parse(PIN);
const iso = (ms: number) => new Date(ms).toISOString();
const SCHEMA = path.resolve(import.meta.dirname, '..', '..', 'schemas', 'report.schema.json');
/** docs/matching.md's catalogue. */
const PRODUCTS = `sku,ean,brand,model,name,lot
A-100,3758240797255,Brightway,,Bicycle helmet,
A-101,3733922905548,Bon Marché Malin,,Chocolat noir 70 %,L69525
A-102,3314660466715,Saveurs d'Antan,,Saucisson sec,L99999
A-103,,Atelier Lumière,,Galettes de riz bio,
A-104,3047256804776,Acme,,Garden hose 20 m,
`;

/** Markdown's escapes undone, as a reader sees the text. */
const unescaped = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('on a clock pinned with RECALL_FEED_SANDBOX_NOW, right after a sync and match --open-cases', () => {
  const dir = tempDir('rf-report-edges-', { scope: 'file' });
  const db = path.join(dir, 'pinned.db');
  const catalog = path.join(dir, 'products.csv');
  const at = (pin: string) => ({ env: { XDG_DATA_HOME: dir, RECALL_FEED_SANDBOX_NOW: pin } });
  const run = (args: string[], pin = PIN) => runMain([args[0]!, '--sandbox', '--db', db, ...args.slice(1)], at(pin));
  let stored: number;
  let cases: Rec[];

  beforeAll(async () => {
    writeFileSync(catalog, PRODUCTS);
    const sync = await run(['sync', '-f', 'json']);
    expect(sync.code, sync.stderr).toBe(0);
    stored = (JSON.parse(sync.stdout) as { new: number }).new;
    const match = await run(['match', '--catalog', catalog, '--archive', '--open-cases', '--sla', '2wd', '-f', 'csv']);
    expect(match.code, match.stderr).toBe(0);
    cases = jsonLines((await run(['cases', '-f', 'jsonl'])).stdout) as Rec[];
  });

  it('the stamps are all exactly now: the setup this file is about', async () => {
    expect(stored).toBeGreaterThan(0);
    expect(cases.length).toBeGreaterThan(0);
    expect(new Set(cases.map((c) => c.opened_at))).toEqual(new Set([PIN]));
    const conn = new Database(db, { readonly: true });
    try {
      expect(conn.prepare('SELECT started_at, ended_at, outcome FROM sync_runs').all()).toEqual([
        { started_at: PIN, ended_at: PIN, outcome: 'ok' },
      ]);
    } finally {
      conn.close();
    }
  });

  it('report without --until: the sync and the cases stamped now are in the period, monitoring complete', async () => {
    const r = await run(['report', '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    expect(d.generated_at).toBe(PIN);
    expect(d.period).toEqual({ since: null, until: iso(PIN_MS + 1) });
    expect(d.summary).toMatchObject({ cases: cases.length, open: cases.length, overdue: 0 });
    expect(d.coverage.monitoring).toMatchObject({ runs: { ok: 1, failed: 0, interrupted: 0 }, last_ok_sync: PIN });
    expect(d.verdict.state).toBe('complete');
    expect(d.statement.as_of).toBe(PIN);
    const page = await run(['report']);
    const nextDue = [...cases].sort((a, b) => a.due_at.localeCompare(b.due_at) || a.id - b.id)[0]!;
    expect(unescaped(page.stdout)).toContain(
      `Open cases: ${cases.length} · overdue: 0 · next due: case ${nextDue.id}, ${nextDue.due_at.slice(0, 16).replace('T', ' ')} UTC · monitoring: complete**`,
    );
  });

  it('digest without --until: the recalls the sync stored now are new, its run counted, monitoring complete', async () => {
    const r = await run(['digest', '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    expect(d.period.to).toBe(iso(PIN_MS + 1));
    expect(d.counts.new).toBe(stored);
    expect(d.health).toMatchObject({
      complete: true,
      runs: { ok: 1, failed: 0, interrupted: 0 },
      writes_settled: true,
    });
    // The archive's clock (the pinned one) reaches the period's end after the millisecond it is behind, not a second.
    expect(r.sleeps).toEqual([1]);
  });

  it('report --until four days ahead: judged now, nothing overdue or missed that is not yet due, and said so', async () => {
    const ahead = PIN_MS + 4 * 86_400_000;
    // Every due time is still to come, as `cases --overdue` says.
    expect(cases.every((c) => Date.parse(c.due_at) > PIN_MS)).toBe(true);
    expect(jsonLines((await run(['cases', '--overdue', '-f', 'jsonl'])).stdout)).toEqual([]);
    const r = await run(['report', '--until', iso(ahead), '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    expect(d.period.until).toBe(iso(PIN_MS + 1));
    expect(d.summary.overdue).toBe(0);
    expect(d.summary.time_to_action).toMatchObject({ with_due: 0, closed_within_sla: 0, share_within_sla: null });
    expect(d.coverage.monitoring.gaps).toEqual([]);
    expect(d.verdict.state).toBe('complete');
    expect(r.stderr).toContain(
      `warning: --until ${iso(ahead)} is after now: the report's period ends now (${PIN}), as time that has not come cannot be judged\n`,
    );
  });

  it('report --since after now: refused before anything is read (exit 2), with or without --until', async () => {
    for (const until of [[], ['--until', '2026-06-05T00:00:00Z']]) {
      const r = await run(['report', '--since', '2026-06-02T00:00:00Z', ...until, '-f', 'json']);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        '',
        "error: --since 2026-06-02T00:00:00Z is after now: the report's period would be empty\n",
      ]);
    }
  });

  it('cases --overdue or --due-soon among closed cases only (--status closed, reopen): refused, nothing changed', async () => {
    for (const args of [
      ['cases', '--status', 'closed', '--due-soon'],
      ['cases', '--status', 'closed', '--overdue'],
      ['cases', 'reopen', '--due-soon', '--note', 'x', '--yes'],
    ]) {
      const r = await run(args);
      const flag = args.includes('--overdue') ? '--overdue' : '--due-soon';
      expect([r.code, r.stderr], args.join(' ')).toEqual([
        2,
        `error: ${flag} selects open and waiting cases: among closed ones it would select none\n`,
      ]);
    }
  });

  it('report --since 10m an hour later: the verdict names the sources no sync in the period covered', async () => {
    const later = iso(PIN_MS + 3_600_000);
    const r = await run(['report', '--since', '10m', '-f', 'json'], later);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    const missing = d.coverage.monitoring.sources_missing as string[];
    // The key's every source: none was synced in these ten minutes, though all were an hour before.
    const conn = new Database(db, { readonly: true });
    let served: string[];
    try {
      served = JSON.parse((conn.prepare('SELECT served FROM sync_runs').get() as { served: string }).served);
    } finally {
      conn.close();
    }
    expect([...missing].sort()).toEqual([...served].sort());
    expect(d.coverage.monitoring.last_ok_sync).toBe(PIN);
    expect(d.verdict.text).toBe(
      `INCOMPLETE: no successful sync in the period covered: ${missing.join(', ')}. Recalls that monitoring did not reach may not have been checked.`,
    );
    expect(r.stderr).toContain(`warning: ${d.verdict.text}\n`);
    const page = await run(['report', '--since', '10m'], later);
    expect(unescaped(page.stdout).split(d.verdict.text)).toHaveLength(2);
    expect(`${page.stdout}${r.stderr}`).not.toContain('never synced');
  });

  it('a broken case log: verify and the report count the events before the break and name no head', async () => {
    const broken = path.join(dir, 'broken.db');
    copyFileSync(db, broken);
    const conn = new Database(broken);
    let second: string;
    try {
      expect(conn.prepare('SELECT count(*) AS n FROM case_events').get()).toEqual({ n: cases.length });
      expect(conn.prepare("UPDATE case_events SET note = 'x' WHERE seq = 3").run().changes).toBe(1);
      second = (conn.prepare('SELECT hash FROM case_events WHERE seq = 2').get() as { hash: string }).hash;
    } finally {
      conn.close();
    }
    const on = (args: string[]) => runMain([args[0]!, '--sandbox', '--db', broken, ...args.slice(1)], at(PIN));
    const v = await on(['cases', 'verify', '-f', 'json']);
    expect(v.code).toBe(12);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: false, events: 2, head: null, broken: { seq: 3 } });

    const r = await on(['report', '-f', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    expect(d.chain).toMatchObject({ intact: false, events: 2, head: null });
    expect(d.provenance.chain_head).toBeNull();
    const ajv = new Ajv2020({ allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as Rec);
    expect(validate(d) ? 'valid' : ajv.errorsText(validate.errors)).toBe('valid');
    const page = await on(['report']);
    expect(unescaped(page.stdout)).toContain('| Chain head | none: the case log is broken (see Timeline integrity) |');
    expect(page.stdout).not.toContain(second);
  });
});

describe.each(ENGINES)('the statement on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('"as of" is when the last successful sync began fetching, not when it ended', async () => {
    const sandbox = await sandboxFor({ recordCount: 20, seed: 7, clock: () => FIXED_START });
    const archive = await testArchive(engine);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', archive.db], { clock: fakeClock(FIXED_START) });
    expect(sync.code, sync.stderr).toBe(0);
    // A sync that took five minutes to store what it fetched.
    const ended = iso(FIXED_START + 300_000);
    expect(await editArchive(archive, `UPDATE sync_runs SET ended_at = '${ended}'`)).toBe(1);
    const [row] = await archive.rows<{ started_at: string }>('SELECT started_at FROM sync_runs');
    expect(row!.started_at).toBe(iso(FIXED_START));

    const r = await runMainAgainst(sandbox, ['report', '--db', archive.db, '-f', 'json'], {
      clock: fakeClock(FIXED_START + 3_600_000),
    });
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Rec;
    expect(d.coverage.monitoring.last_ok_sync).toBe(ended);
    expect(d.statement.as_of).toBe(row!.started_at);
    expect(d.statement.text).toContain(`as of ${row!.started_at.slice(0, 19).replace('T', ' ')} UTC.`);
  });
});
