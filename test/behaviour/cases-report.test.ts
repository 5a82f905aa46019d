// `report` in process on both engines: every format against the archive's cases, coverage and health, computed here
// from the archive itself; and the same flow reports the same on both.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { clockFree } from '../helpers/archive-edit.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { type Engine, ENGINES } from '../helpers/postgres.js';

type Rec = Record<string, any>;
const CHROMIUM = '/usr/bin/chromium';
const HTML_NOTE = 'pulled from 14 stores <b>& "all" of them';
const FORMULA_NOTE = '=HYPERLINK("http://example.invalid","x")';
/** Each engine's `report -f json`, clock taken out (generated_at, run and event times, hashes), for the check at the end. */
const reports = new Map<Engine, string>();

const barcodes = (r: Rec): string[] =>
  (r.standard_identifiers_and_barcodes as unknown[]).map((x) => (typeof x === 'string' ? x : String((x as Rec).value)));

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let sandbox: Sandbox;
  const folder = tempFolder('rf-report-');
  let archive: TestArchive;
  let db: string;
  const catalog = folder.file('products.csv');
  let listing: Rec[];
  let catalogueRows: number;
  let identifiable: number;
  let lastOkSync: string;
  let firstSync: string;

  beforeAll(async () => {
    archive = await testArchive(engine);
    db = archive.db;
    sandbox = await sandboxFor({ seed: 23, recordCount: 120, clock: () => FIXED_START });
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    // Candidate barcode rows; only those that match are kept, so each kept row has a valid barcode.
    const candidates = sandbox
      .records()
      .filter((r) => barcodes(r).length > 0)
      .slice(0, 20)
      .map((r, i) => `P${i},${barcodes(r)[0]},,`);
    writeFileSync(catalog, `sku,gtin,brand,name\n${candidates.join('\n')}\n`);
    const probe = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '-f', 'jsonl']);
    const matched = [...new Set((jsonLines(probe.stdout) as Rec[]).map((m) => String(m.sku)))];
    expect(matched.length).toBeGreaterThanOrEqual(3);
    const kept = candidates.filter((line) => matched.includes(line.split(',')[0]!));
    // Three more rows: a name alone and a bad barcode alone (nothing to match on), a brand and a name (no match).
    const rows = [...kept, 'N1,,,Just a name', 'N2,ABC,,', 'N3,,Nobrand,Nothing at all'];
    writeFileSync(catalog, `sku,gtin,brand,name\n${rows.join('\n')}\n`);
    catalogueRows = rows.length;
    identifiable = kept.length + 1;
    const opened = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases']);
    expect(opened.code, opened.stderr).toBe(0);
    listing = jsonLines((await runMain(['cases', '--db', db, '--status', 'all', '-f', 'jsonl'])).stdout) as Rec[];
    const [a, b, c] = listing;
    const step = async (args: string[]) => expect((await runMain(['cases', ...args, '--db', db])).code).toBe(0);
    await step(['resolve', String(a!.id), '--as', 'removed-from-sale', '--note', HTML_NOTE, '--by', 'alice']);
    await step(['resolve', String(b!.id), '--as', 'false-positive', '--note', FORMULA_NOTE, '--by', 'bob']);
    if (c) await step(['wait', String(c.id), '--note', 'lab test ordered']);
    listing = jsonLines((await runMain(['cases', '--db', db, '--status', 'all', '-f', 'jsonl'])).stdout) as Rec[];
    const [runs] = await archive.rows<Rec>(
      "SELECT min(started_at) AS first, max(ended_at) AS last FROM sync_runs WHERE outcome = 'ok'",
    );
    [firstSync, lastOkSync] = [runs!.first, runs!.last];
  });

  /** The report on stdout; against the sandbox, so the sources the key may use are checked. */
  async function report(args: string[]) {
    const r = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r;
  }

  const rowsWithCases = () => new Set(listing.map((c) => c.catalog_key)).size;
  const statementText = () =>
    `No match was found for the other ${catalogueRows - rowsWithCases()} rows as of ${lastOkSync.slice(0, 19).replace('T', ' ')} UTC.`;

  describe('report', () => {
    it('-f json holds every case with every event, the coverage, the health and the statement', async () => {
      const { stdout } = await report(['-f', 'json']);
      const data = JSON.parse(stdout);
      // Each case as `cases` lists it (in the same order: matches first, then by severity), with what the report adds.
      const bare = data.cases.map(({ recall: _r, closed_at: _c, time_to_action_hours: _t, ...c }: Rec) => ({
        ...c,
        events: c.events.map(({ number: _n, ...e }: Rec) => e),
      }));
      expect(bare).toEqual(listing);
      for (const c of data.cases)
        expect(c.events.map((e: Rec) => e.number)).toEqual(c.events.map((_: Rec, i: number) => i + 1));
      expect(data.summary).toMatchObject({
        cases: listing.length,
        open: listing.filter((c) => c.status === 'open').length,
        waiting: listing.filter((c) => c.status === 'waiting').length,
        closed: 2,
        outcomes: { 'removed-from-sale': 1, 'false-positive': 1 },
      });
      expect(data.coverage.catalogue).toEqual({
        file: 'products.csv',
        rows: catalogueRows,
        with_identifier: identifiable,
        without_identifier: catalogueRows - identifiable,
        // N2's barcode is refused: listed, and not counted usable.
        refused: [{ line: catalogueRows - 1, catalog_key: 'sku:N2', value: 'ABC', reason: expect.any(String) }],
        key_column: 'sku',
        rows_with_cases: rowsWithCases(),
        rows_matching: rowsWithCases(),
        matches_without_case: [],
        not_opened: [],
        // The flow opened cases at both levels (match --open-cases without --level), as the archive recorded.
        case_levels: ['match', 'possible'],
        excluded: [],
        to_verify: expect.any(Array),
      });
      // Each pair to verify is one the flow found, with what to check in the notice's words.
      for (const v of data.coverage.catalogue.to_verify as Record<string, unknown>[]) {
        expect(['match', 'possible']).toContain(v.level);
        expect(String(v.verify)).toMatch(/^verify (lot|date|lot\/date)[ ,:]/);
      }
      expect(data.coverage.monitoring).toEqual({
        complete: true,
        runs: { ok: 1, failed: 0, interrupted: 0 },
        last_ok_sync: lastOkSync,
        gaps: [],
        sources_missing: [],
      });
      expect(data.verdict).toEqual({
        state: 'complete',
        text: 'Monitoring was complete over the period: 1 successful sync, none failed or interrupted, no gap, every source the key may use synced.',
        monitoring_began: new Date(Date.parse(firstSync) - 24 * 3_600_000).toISOString(),
        unmonitored_hours: 0,
      });
      expect(data.statement).toEqual({
        text: `${statementText()} ${data.verdict.text}`,
        incomplete: false,
        as_of: lastOkSync,
        rows_without_match: catalogueRows - rowsWithCases(),
      });
      expect(data.chain).toMatchObject({ intact: true, events: listing.reduce((n, c) => n + c.events.length, 0) });
      // The archive's name and the hours to action (the wall clock's) differ by engine and run: taken out too.
      const comparable = JSON.parse(stdout);
      comparable.provenance.archive = '<archive>';
      comparable.statement.text = comparable.statement.text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g, '<time>');
      comparable.summary.time_to_action = { ...comparable.summary.time_to_action, median_hours: 0, p90_hours: 0 };
      for (const c of comparable.cases) c.time_to_action_hours = c.time_to_action_hours === null ? null : 0;
      reports.set(engine, clockFree(JSON.stringify(comparable, null, 2)));
    });

    it('a period reaching back before monitoring began says once when it began, not a gap a sync missed', async () => {
      const r = await report(['-f', 'json', '--since', '2020-01-01']);
      const data = JSON.parse(r.stdout);
      const began = new Date(Date.parse(firstSync) - 24 * 3_600_000).toISOString();
      expect(data.coverage.monitoring).toMatchObject({ complete: true, gaps: [] });
      expect(data.verdict).toMatchObject({
        state: 'complete-since-start',
        monitoring_began: began,
        unmonitored_hours: Math.round((Date.parse(began) - Date.parse('2020-01-01')) / 360_000) / 10,
      });
      expect(data.statement.incomplete).toBe(true);
      expect(data.statement.text).toMatch(
        /^No match was found for the other \d+ rows as of .*\. Monitoring began with the archive's first sync \(.*\), which fetched recalls published from .*; the .* of this period before that were not monitored\. From then on monitoring was complete: recall-feed report --since \S+ covers only monitored time, and is complete\.$/,
      );
      expect(r.stderr).toContain(data.verdict.text);
      // A period that ended before the cases were opened has none of them.
      const early = JSON.parse((await report(['-f', 'json', '--since', '2020-01-01', '--until', '2020-02-01'])).stdout);
      expect(early.cases).toEqual([]);
      expect(early.statement.incomplete).toBe(true);
    });

    it('-o report.html is one self-contained page with the notes, no script, nothing from the network, never "safe"', async () => {
      const file = folder.file('evidence.html');
      const r = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '-o', file]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const html = readFileSync(file, 'utf8');
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html).toContain('pulled from 14 stores &lt;b&gt;&amp; &quot;all&quot; of them');
      expect(html).not.toContain('<b>&');
      expect(html).toContain('lab test ordered');
      expect(html).toContain(statementText());
      expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|@import|url\(/i);
      // The only references are the links to the recalls' notices (which load nothing).
      const hrefs = [...html.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]);
      const notices = new Set(
        listing.map((c) => escapeHtml(sandbox.records().find((r) => r.id === c.recall_id)?.source_url ?? '')),
      );
      expect(hrefs.length).toBeGreaterThan(0);
      for (const h of hrefs) expect(notices.has(h!)).toBe(true);
      expect(html.replace(/<a href="[^"]*" rel="noreferrer noopener">/g, '')).not.toMatch(
        /\b(?:src|href|srcset|action)\s*=/i,
      );
      // The http addresses in the file are text: the note's own, escaped, and each recall's notice (shown, never a
      // reference: the page links nowhere).
      let addresses = html.replace(/=HYPERLINK\(&quot;http:\/\/example\.invalid&quot;,&quot;x&quot;\)/g, '');
      for (const c of listing) {
        const url = sandbox.records().find((r) => r.id === c.recall_id)?.source_url;
        if (url) {
          expect(html).toContain(`<a href="${escapeHtml(url)}" rel="noreferrer noopener">${escapeHtml(url)}</a>`);
          addresses = addresses.split(escapeHtml(url)).join('');
        }
      }
      expect(addresses).not.toMatch(/https?:/i);
      // Our own words never call anything safe: take the recalls' titles out, then look.
      let ours = html;
      for (const c of listing) ours = ours.split(escapeHtml(c.alert_title ?? '')).join('');
      expect(ours).not.toMatch(/\bsafe\b|all clear/i);
      for (const c of listing) expect(html).toContain(`Case ${c.id} · ${c.status}`);
      // Silent off a terminal (cron), as every command; on one, the file named; `-o -` names none.
      expect(r.stderr).not.toContain('wrote');
      const told = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '-o', file], {
        stderrIsTTY: true,
      });
      expect(told.stderr.trimEnd().split('\n').at(-1)).toBe(`wrote the report (${listing.length} cases) to ${file}`);
      const dash = await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '-o', '-'], {
        stderrIsTTY: true,
      });
      expect(dash.stderr).not.toContain('wrote');
    });

    it.skipIf(!existsSync(CHROMIUM))(
      'the HTML renders in headless Chromium with its text and loads nothing (runs only where /usr/bin/chromium exists)',
      async () => {
        const file = folder.file('chromium.html');
        expect(
          (await runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '-f', 'html', '-o', file])).code,
        ).toBe(0);
        const { chromium } = await import('playwright-core');
        const browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        });
        try {
          const page = await browser.newPage();
          const requested: string[] = [];
          page.on('request', (req) => requested.push(req.url()));
          await page.goto(pathToFileURL(file).href);
          // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered (and printed) is the point
          const text = await page.innerText('body');
          expect(text).toContain(statementText());
          expect(text).toContain(HTML_NOTE);
          expect(requested.filter((u) => !u.startsWith('file:'))).toEqual([]);
          // The auditor's summary table comes first: the document's first table, before the statement, one row a case.
          // In the page (a string: the test's own types know no DOM).
          const layout = (await page.evaluate(`(() => {
            const first = document.querySelector('table');
            const statement = document.querySelector('.statement');
            return {
              scripts: document.scripts.length,
              firstClass: first && first.className,
              beforeStatement: Boolean(
                first && statement && first.compareDocumentPosition(statement) & Node.DOCUMENT_POSITION_FOLLOWING,
              ),
              header: [...(first ? first.querySelectorAll('th') : [])].map((th) => th.textContent),
              rows: first ? first.querySelectorAll('tr').length - 1 : 0,
              firstCase: first && first.querySelector('tr:nth-child(2) td').textContent,
            };
          })()`)) as Rec;
          expect(layout).toEqual({
            scripts: 0,
            firstClass: 'summary',
            beforeStatement: true,
            header: [
              'Case',
              'Product',
              'Recall',
              'Severity',
              'Level',
              'Status',
              'Outcome',
              'Opened',
              'Due',
              'Closed',
              'Time to action',
            ],
            rows: listing.length,
            firstCase: String(listing[0]!.id),
          });
          expect((await page.pdf()).length).toBeGreaterThan(1000);
        } finally {
          await browser.close();
        }
      },
    );

    it('markdown (the default on stdout) has the statement, each case and its notes escaped', async () => {
      const md = (await report([])).stdout;
      expect(md.startsWith('# Recall monitoring: cases and coverage\n')).toBe(true);
      expect(md).toContain(statementText());
      expect(md).toContain('pulled from 14 stores \\<b\\>\\& "all" of them');
      for (const c of listing) expect(md).toContain(`### Case ${c.id} · ${c.status}`);
      expect(md).not.toMatch(/all clear/i);
    });

    it('-f csv is one row per case with its last event, formulas guarded', async () => {
      const csv = (await report(['-f', 'csv'])).stdout;
      const rows = parse(csv, { columns: true }) as Rec[];
      expect(csv.split('\n')[0]).toBe(
        'case_id,status,outcome,level,reason,recall_id,alert_title,catalog_key,opened_at,events,last_event_at,last_event,last_event_by,last_event_note,risk_severity,product_name,due_at,closed_at,time_to_action_hours,entry,scope_evidence,row_lot,row_date,excluded_on',
      );
      expect(rows.map((r) => Number(r.case_id))).toEqual(listing.map((c) => c.id));
      for (const [i, c] of listing.entries()) {
        const last = c.events.at(-1);
        expect(rows[i]).toMatchObject({
          status: c.status,
          outcome: c.outcome ?? '',
          events: String(c.events.length),
          last_event_at: last.at,
          last_event: last.action,
          last_event_by: last.actor,
        });
      }
      expect(rows[1]!.last_event_note).toBe(`'${FORMULA_NOTE}`);
      expect(rows[0]!.last_event_note).toBe(HTML_NOTE);
    });

    it('refuses a format it does not write, and --key without --catalog, before reading anything', async () => {
      const bad = await runMain(['report', '--db', db, '-f', 'table']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^error: --format/);
      const key = await runMain(['report', '--db', db, '--key', 'sku']);
      expect([key.code, key.stderr]).toEqual([2, 'error: --key works with --catalog\n']);
    });
  });
});

describe('both engines', () => {
  it.skipIf(!ENGINES.every((e) => e.available))(
    'the same flow gives the same `report -f json`, byte for byte but for the clock',
    () => {
      const sqlite = reports.get('sqlite');
      expect(sqlite).toMatch(/"removed-from-sale"/);
      expect(reports.get('postgres')).toBe(sqlite);
    },
  );
});

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
