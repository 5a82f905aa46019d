// The report after the README's flow (cases for matches only, then report --since 31d), on both engines: possibles not opened by choice are listed as such, the time before the first sync is said once (not a gap), and one verdict on the page, in JSON and on stderr.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';

type Rec = Record<string, any>;
const folder = tempFolder('rf-report-verdict-');

const jsonl = (text: string): Rec[] =>
  text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Rec);

/** HTML's entities undone (written out here, not taken from the code under test), as a reader sees the text. */
const fromHtml = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Markdown's escapes undone, as a reader sees the text. */
const unescaped = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** A catalogue with one row matching a stored recall (model and brand) and one only possibly (the model, another brand). */
async function setUp(sandbox: Sandbox, db: string, engine: string) {
  expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
  const stored = jsonl((await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl'])).stdout);
  const [a, c] = stored.filter(
    (r) =>
      typeof r.product_brand === 'string' &&
      /^[A-Za-z]+$/.test(r.product_brand) &&
      typeof r.product_model_numbers?.[0] === 'string' &&
      /^[A-Za-z0-9-]{4,}$/.test(r.product_model_numbers[0]),
  );
  const catalog = folder.file(`products-${engine}.csv`);
  writeFileSync(
    catalog,
    [
      'sku,name,brand,model',
      `KA,Kettle A,${a!.product_brand},${a!.product_model_numbers[0]}`,
      `KC,Heater C,Zzyzxotherbrand,${c!.product_model_numbers[0]}`,
    ].join('\n'),
  );
  return { catalog, a: a!, c: c! };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('README flow: not opened by choice, monitoring began at the first sync, one verdict everywhere', async () => {
    const sandbox = await sandboxFor({ recordCount: 60, seed: 91 });
    const { db } = await testArchive(engine);
    const { catalog, c } = await setUp(sandbox, db, engine);
    const opened = await runMainAgainst(sandbox, [
      ...['match', '--catalog', catalog, '--archive', '--db', db],
      ...['--open-cases', '--level', 'match', '--sla', '2wd', '-f', 'jsonl'],
    ]);
    expect(opened.code, opened.stderr).toBe(0);
    const possible = jsonl(opened.stdout).filter((r) => r.level === 'possible');
    expect(possible.map((r) => [r.sku, r.recall_id])).toContainEqual(['KC', c.id]);
    const cases = jsonl((await runMainAgainst(sandbox, ['cases', '--db', db, '-f', 'jsonl'])).stdout);
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.every((k) => k.level === 'match')).toBe(true);

    const report = (since: string, format: string, stderrIsTTY = false) =>
      runMainAgainst(sandbox, ['report', '--db', db, '--catalog', catalog, '--since', since, '-f', format], {
        stderrIsTTY,
      });

    const month = await report('31d', 'json');
    expect(month.code, month.stderr).toBe(0);
    const d = JSON.parse(month.stdout) as Rec;
    const cat = d.coverage.catalogue;
    expect(cat.case_levels).toEqual(['match']);
    expect(cat.matches_without_case).toEqual([]);
    expect(cat.not_opened.map((p: Rec) => [p.catalog_key, p.recall_id, p.level])).toEqual(
      possible.map((r) => [`sku:${r.sku}`, r.recall_id, 'possible']),
    );
    // The 30 days before the first sync are not a gap a sync missed: said once, with the --since that is complete.
    expect(d.coverage.monitoring.gaps).toEqual([]);
    expect(d.verdict.state).toBe('complete-since-start');
    expect(d.verdict.unmonitored_hours).toBeGreaterThan(29 * 24);
    expect(d.verdict.text).toContain("Monitoring began with the archive's first sync");
    expect(d.verdict.text).not.toMatch(/gap|INCOMPLETE/);
    expect(month.stderr).toContain(d.verdict.text);
    // The verdict's own advice, taken: the shorter period is complete.
    const shorter = /recall-feed report --since (\S+) covers only monitored time/.exec(d.verdict.text)![1]!;
    const since = JSON.parse((await report(shorter, 'json')).stdout) as Rec;
    expect(since.verdict.state).toBe('complete');

    for (const format of ['markdown', 'html']) {
      const page = await report('31d', format);
      expect(page.code, page.stderr).toBe(0);
      const text = format === 'markdown' ? unescaped(page.stdout) : fromHtml(page.stdout);
      expect(text.split(d.verdict.text).length - 1, format).toBe(1);
      expect(text).toContain('Not opened (level match chosen)');
      expect(text).not.toContain('Matches without a case</h3>');
      expect(text).not.toContain('### Matches without a case');
      // It opens with the answer: open cases, overdue, next due, monitoring.
      const nextDue = [...cases].sort((x, y) => x.due_at.localeCompare(y.due_at))[0]!;
      const answer = `Open cases: ${cases.length} · overdue: 0 · next due: case ${nextDue.id}, ${nextDue.due_at.slice(0, 16).replace('T', ' ')} UTC · monitoring: complete since it began`;
      expect(text.indexOf(answer), format).toBeGreaterThan(0);
      expect(text.indexOf(answer)).toBeLessThan(text.indexOf('Summary'));
    }

    // A day after the first sync's window began: complete on the page, in JSON and on stderr alike; off a
    // terminal a complete verdict is good news, which cron would mail: stderr stays empty there.
    const day = await report('1d', 'json', true);
    const dd = JSON.parse(day.stdout) as Rec;
    expect(dd.verdict.state).toBe('complete');
    expect(dd.statement.incomplete).toBe(false);
    expect(day.stderr).toContain(dd.verdict.text);
    expect(day.stderr).not.toMatch(/incomplete/i);
    expect((await report('1d', 'json')).stderr).toBe('');
    const dayPage = await report('1d', 'html');
    expect(fromHtml(dayPage.stdout)).toContain(dd.verdict.text);
    const shown = fromHtml(dayPage.stdout.replace(/<style>[\s\S]*<\/style>/, '').replace(/<[^>]+>/g, ' '));
    expect(shown).not.toMatch(/incomplete/i);
    expect(dayPage.stdout).not.toContain('class="statement incomplete"');
    expect(dayPage.stderr).not.toMatch(/incomplete/i);
  }, 120_000);
});
