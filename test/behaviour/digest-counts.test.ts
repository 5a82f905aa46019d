// One count of your products in every output of a digest, on both engines: subject, text, Markdown, HTML, JSON, the e-mail and its CSV, Slack and Teams say what `match` counts over the same recalls, and which recalls they counted.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';

type Rec = Record<string, any>;
const folder = tempFolder('rf-digest-counts-');
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';

const jsonl = (text: string): Rec[] =>
  text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Rec);

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('every output says the counts `match` gives over the same recalls, closed cases apart', async () => {
    const sandbox = await sandboxFor({ recordCount: 60, seed: 83 });
    sandbox.addRecords([
      { alert_title: 'Yaourt nature', risk_severity: 'serious', standard_identifiers_and_barcodes: [LINE] },
    ]);
    const archive = await testArchive(engine);
    const db = archive.db;
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const stored = jsonl((await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl'])).stdout);
    const usable = stored.filter(
      (r) =>
        typeof r.product_brand === 'string' &&
        /^[A-Za-z]+$/.test(r.product_brand) &&
        typeof r.product_model_numbers?.[0] === 'string' &&
        /^[A-Za-z0-9-]{4,}$/.test(r.product_model_numbers[0]),
    );
    const [a, b, c] = usable;
    expect(c).toBeDefined();
    const catalog = folder.file(`products-${engine}.csv`);
    writeFileSync(
      catalog,
      [
        'sku,name,brand,model,ean,lot',
        `KA,Kettle A,${a!.product_brand},${a!.product_model_numbers[0]},,`,
        `KB,Lamp B,${b!.product_brand},${b!.product_model_numbers[0]},,`,
        // The same model under another brand: possible.
        `KC,Heater C,Zzyzxotherbrand,${c!.product_model_numbers[0]},,`,
        // The notice names lot V028: X matches, Y (lot V031) is excluded.
        'X,Yaourt X,,,3564709006031,V028',
        'Y,Yaourt Y,,,3564709006031,V031',
      ].join('\n'),
    );

    // As the README says: cases for matches only; one of them then closed.
    // On a terminal, where match says its counts.
    const opened = await runMainAgainst(
      sandbox,
      [
        ...['match', '--archive', '--db', db, '--catalog', catalog],
        ...['--open-cases', '--level', 'match', '-f', 'jsonl'],
      ],
      { stderrIsTTY: true },
    );
    expect(opened.code, opened.stderr).toBe(0);
    // What match counts, and says it counts: every recall in the archive (all stored in the digest's day).
    const rows = jsonl(opened.stdout);
    const pairs = (level: string) => rows.filter((r) => r.level === level).length;
    const expectedPairs = { match: pairs('match'), possible: pairs('possible'), excluded: pairs('excluded') };
    expect(expectedPairs.excluded).toBeGreaterThan(0);
    expect(expectedPairs.possible).toBeGreaterThan(0);
    expect(opened.stderr).toContain(
      `recalls: ${stored.length} in the archive · ${expectedPairs.match} matches · ${expectedPairs.possible} possible · ${expectedPairs.excluded} excluded (out of scope)`,
    );
    const cases = jsonl((await runMainAgainst(sandbox, ['cases', '--db', db, '-f', 'jsonl'])).stdout);
    const kb = cases.find((k) => k.catalog_key === 'sku:KB' && k.recall_id === b!.id)!;
    const resolved = await runMainAgainst(sandbox, [
      'cases',
      'resolve',
      String(kb.id),
      '--as',
      'removed-from-sale',
      '--db',
      db,
    ]);
    expect(resolved.code, resolved.stderr).toBe(0);

    // Rows: each catalogue line once, by its strongest pair not closed; a row with only closed pairs is closed.
    const closedPair = (r: Rec) => r.sku === 'KB' && r.recall_id === b!.id;
    const active = rows.filter((r) => r.level !== 'excluded' && !closedPair(r));
    const lines = (rs: Rec[]) => new Set(rs.map((r) => r.catalog_line));
    const matchLines = lines(active.filter((r) => r.level === 'match'));
    const seriousLines = lines(active.filter((r) => r.level === 'match' && r.risk_severity === 'serious'));
    const possibleLines = [...lines(active)].filter((l) => !matchLines.has(l));
    const closedLines = [...lines(rows.filter((r) => r.level !== 'excluded'))].filter((l) => !lines(active).has(l));
    const expectedRows = {
      match: matchLines.size,
      match_serious: seriousLines.size,
      possible: possibleLines.length,
      closed: closedLines.length,
    };
    expect(expectedRows.closed).toBe(1);

    const base = ['digest', '--db', db, '--catalog', catalog];
    // Every digest run at one instant: their periods (and so the words that name them) are the same to the minute.
    const clock = fakeClock(Date.now());
    const json = await runMainAgainst(sandbox, [...base, '-f', 'json'], { clock });
    expect(json.code, json.stderr).toBe(0);
    const d = JSON.parse(json.stdout) as Rec;
    expect(d.counts.products).toEqual({
      period: d.period,
      recalls_checked: stored.length,
      pairs: { ...expectedPairs, closed: 1 },
      rows: expectedRows,
    });

    const m = expectedRows.match;
    const subjectWords = `${m} of your products ${m === 1 ? 'matches' : 'match'}${expectedRows.match_serious > 0 ? ` (${expectedRows.match_serious} serious)` : ''}, ${expectedRows.possible} possible, 1 closed`;
    const pairWords = `${expectedPairs.match} matches · ${expectedPairs.possible} possible · ${expectedPairs.excluded} excluded (out of scope); 1 of the match and possible pairs have a closed case`;
    const period = `recalls stored ${d.period.from.slice(0, 16).replace('T', ' ')} UTC to ${d.period.to.slice(0, 16).replace('T', ' ')} UTC`;
    const says = (what: string, out: string) => {
      expect(out, what).toContain(subjectWords);
      expect(out, what).toContain(pairWords);
      expect(out, what).toContain(`${stored.length} ${period}`);
    };
    for (const format of ['text', 'markdown', 'html']) {
      const r = await runMainAgainst(sandbox, [...base, '-f', format], { clock });
      expect(r.code, r.stderr).toBe(0);
      // Markdown's escapes undone, as a reader sees the text.
      says(format, format === 'markdown' ? r.stdout.replace(/\\([!-/:-@[-`{-~])/g, '$1') : r.stdout);
    }

    const smtp = await smtpServer();
    const hook = await receivingServer('1');
    const mailed = await runMainAgainst(
      sandbox,
      [...base, ...['--email', 'qa@example.test', '--email-from', 'recalls@example.test', '--smtp-url', smtp.url]],
      { clock },
    );
    expect(mailed.code, mailed.stderr).toBe(0);
    const mail = smtp.received[0]!;
    expect(mail.subject).toContain(subjectWords);
    says('e-mail text', mail.text);
    says('e-mail html', mail.html);
    const csvFile = folder.file(`attached-${engine}.csv`);
    writeFileSync(csvFile, mail.attachments[0]!.content);
    const csv = await parseCsvWithPython(csvFile);
    const col = (name: string) => csv[0]!.indexOf(name);
    const bRow = csv.find((row) => row[col('id')] === String(b!.id))!;
    expect(bRow[col('your_products')]).toContain(`match: sku KB · Lamp B (case ${kb.id} closed)`);

    for (const format of ['slack', 'teams']) {
      const r = await runMainAgainst(sandbox, [...base, '--webhook', `${hook.url}/hook`, '--webhook-format', format], {
        clock,
      });
      expect(r.code, r.stderr).toBe(0);
    }
    for (const [i, what] of ['slack', 'teams'].entries()) {
      // As the text reads, JSON escapes undone.
      says(what, JSON.stringify(JSON.parse(hook.received[i]!.body)).replace(/\\"/g, '"'));
    }
  }, 120_000);
});
