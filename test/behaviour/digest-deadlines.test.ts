// The digest's deadlines, in process over real HTTP on both engines: a case opened with --sla 2wd comes first as
// overdue once its due time has passed (text, JSON, Teams, Slack, the e-mail's subject), as due soon before it per the rule.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { smtpServer } from '../helpers/smtp.js';

type Rec = Record<string, any>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A Friday evening: recalls of Thursday and Friday are due after the weekend. */
const SANDBOX_START = Date.parse('2026-01-16T18:00:00Z');
/** Two working days after a time, by its weekday (Sun..Sat), written out by hand. */
const TWO_WD_OFFSET = [2, 2, 2, 2, 4, 4, 3];
/** The days from a day's 00:00 UTC to the end of the next working day after it (Sun..Sat), by hand. */
const DUE_SOON_END = [2, 2, 2, 2, 2, 4, 3];
const utc = (iso: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
const valid = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'schemas', 'digest.schema.json'), 'utf8')),
);
const dueSoonHorizon = (now: number) => {
  const day = Math.floor(now / DAY) * DAY;
  return day + DUE_SOON_END[new Date(day).getUTCDay()]! * DAY;
};

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const folder = tempFolder('rf-digest-deadlines-');
  const catalog = folder.file('products.csv');
  let sandbox: Sandbox;
  let archive: TestArchive;
  let recall: Rec;
  let caseId: number;
  let due: number;

  const digest = (args: string[], now: number) =>
    runMainAgainst(sandbox, ['digest', '--db', archive.db, ...args], { clock: fakeClock(now) });

  beforeAll(async () => {
    archive = await testArchive(engine);
    sandbox = await sandboxFor({ seed: 51, recordCount: 120, clock: () => SANDBOX_START });
    const clock = fakeClock(SANDBOX_START + HOUR);
    const sync = await runMainAgainst(sandbox, ['sync', '--db', archive.db], { clock });
    expect(sync.code, sync.stderr).toBe(0);
    const stored = new Set((await archive.rows<{ id: number }>('SELECT id FROM recalls')).map((r) => Number(r.id)));
    // One catalogue row, matched by brand and model to one stored recall.
    const models = sandbox
      .records()
      .filter(
        (r: Rec) =>
          stored.has(r.id) &&
          r.product_brand &&
          r.product_model_numbers.length > 0 &&
          /^[A-Za-z0-9-]{4,}$/.test(r.product_model_numbers[0]),
      ) as Rec[];
    recall = models.find(
      (r) => models.filter((o) => o.product_model_numbers[0] === r.product_model_numbers[0]).length === 1,
    )!;
    writeFileSync(
      catalog,
      `sku,name,brand,model\nKT-100,Kettle Deluxe,${recall.product_brand},${recall.product_model_numbers[0]}\n`,
    );
    const open = await runMainAgainst(
      sandbox,
      [
        'match',
        '--catalog',
        catalog,
        '--archive',
        '--db',
        archive.db,
        '--open-cases',
        '--level',
        'match',
        '--sla',
        '2wd',
      ],
      { clock },
    );
    expect(open.code, open.stderr).toBe(0);
    const cases = jsonLines(
      (await runMainAgainst(sandbox, ['cases', '--db', archive.db, '-f', 'jsonl'], { clock })).stdout,
    ) as Rec[];
    expect(cases.map((c) => [c.recall_id, c.catalog_key])).toEqual([[recall.id, 'sku:KT-100']]);
    caseId = cases[0]!.id;
    const published = utc(recall.published_at);
    due = published + TWO_WD_OFFSET[new Date(published).getUTCDay()]! * DAY;
    expect(cases[0]!.due_at).toBe(new Date(due).toISOString());
  });

  it('after the due time: first in the JSON and the text as overdue, by how long; the subject counts it', async () => {
    const now = due + 3 * HOUR + 5 * MINUTE;
    const json = await digest(['-f', 'json'], now);
    expect(json.code, json.stderr).toBe(0);
    const d = JSON.parse(json.stdout) as Rec;
    expect(Object.keys(d).slice(0, 3)).toEqual(['period', 'deadlines', 'products']);
    // The shipped schema (npm run schemas) describes it.
    expect(valid(d), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ ...d, deadlines: { ...d.deadlines, overdue: 'one' } })).toBe(false);
    expect(d.deadlines).toMatchObject({ as_of: new Date(now).toISOString(), overdue: 1, due_soon: 0 });
    expect(d.deadlines.cases).toEqual([
      {
        state: 'overdue',
        case_id: caseId,
        status: 'open',
        level: 'match',
        catalog_key: 'sku:KT-100',
        product_name: 'Kettle Deluxe',
        recall_id: recall.id,
        alert_title: recall.alert_title,
        risk_severity: recall.risk_severity ?? null,
        due_at: new Date(due).toISOString(),
        sla: '2wd',
        hours_left: -3.08,
      },
    ]);

    const text = await digest([], now);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^Recalls \d{1,2} \w{3}: 1 case overdue · /);
    expect(lines[3]).toBe('deadlines');
    expect(lines[5]).toBe('  OVERDUE  sku KT-100 · Kettle Deluxe');
    expect(lines[7]).toContain(`case ${caseId} · `);
    expect(lines[7]).toContain(`due ${new Date(due).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(lines[7]).toMatch(/ · OVERDUE by 3 h 5 min$/);
    expect(lines.indexOf('deadlines')).toBeLessThan(lines.indexOf('monitoring'));
  });

  it('with --catalog the deadlines still come before your products, and the product row names its case and due time', async () => {
    const now = due + 3 * HOUR + 5 * MINUTE;
    // A period that holds the recall's sync: your products then lists the kettle.
    const args = ['--catalog', catalog, '--since', '2000-01-01', '--until', '2100-01-01'];
    const json = JSON.parse((await digest([...args, '-f', 'json'], now)).stdout) as Rec;
    expect(valid(json), JSON.stringify(valid.errors)).toBe(true);
    const kettle = json.products.find((p: Rec) => p.key === 'KT-100' && p.recall_id === recall.id);
    expect(kettle.case).toEqual({ id: caseId, status: 'open', due_at: new Date(due).toISOString() });
    const text = (await digest(args, now)).stdout;
    expect(text.indexOf('\ndeadlines\n')).toBeGreaterThan(0);
    expect(text.indexOf('\ndeadlines\n')).toBeLessThan(text.indexOf('\nyour products\n'));
    expect(text).toContain(`case ${caseId} open, due ${new Date(due).toISOString()}`);
    const md = (await digest([...args, '-f', 'markdown'], now)).stdout;
    expect(
      md
        .split('\n')
        .filter((l) => l.startsWith('## '))
        .slice(0, 2),
    ).toEqual(['## Deadlines', '## Your products']);
    const html = (await digest([...args, '-f', 'html'], now)).stdout;
    expect([...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]).slice(0, 2)).toEqual([
      'Deadlines',
      'Your products',
    ]);
  });

  it('the Teams card and the Slack text open with it as overdue; the e-mail subject counts it', async () => {
    const now = due + 3 * HOUR + 5 * MINUTE;
    const hook = await receivingServer('1');
    for (const format of ['teams', 'slack']) {
      const r = await digest(['--webhook', `${hook.url}/hook`, '--webhook-format', format], now);
      expect(r.code, r.stderr).toBe(0);
    }
    const [teams, slack] = hook.received.map((b) => JSON.parse(b.body) as Rec);
    const teamsText = JSON.stringify(teams);
    const slackText = slack!.text as string;
    expect(slackText.split('\n')[0]).toMatch(/^\*Recalls \d{1,2} \w{3}: 1 case overdue · /);
    expect(slackText.split('\n')[1]).toBe('*Deadlines*');
    for (const body of [teamsText, slackText]) {
      const at = body.indexOf('OVERDUE');
      expect(at).toBeGreaterThan(0);
      expect(body.indexOf('sku KT-100 · Kettle Deluxe')).toBeGreaterThan(at);
      expect(body).toContain(`case ${caseId} · `);
      expect(body).toContain('OVERDUE by 3 h 5 min');
      expect(body.indexOf('OVERDUE')).toBeLessThan(body.indexOf('Monitoring '));
    }

    const smtp = await smtpServer();
    const mail = await digest(
      ['--email', 'qa@example.test', '--email-from', 'recalls@example.test', '--smtp-url', smtp.url],
      now,
    );
    expect(mail.code, mail.stderr).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.subject).toMatch(/^Recalls \d{1,2} \w{3}: 1 case overdue · /);
    expect(smtp.received[0]!.html).toContain('<h2>Deadlines</h2>');
    expect(smtp.received[0]!.text).toContain('OVERDUE  sku KT-100 · Kettle Deluxe');
  });

  it('before the due time: due soon only when due before the end of the next working day', async () => {
    let soon = 0;
    let later = 0;
    for (const now of [due - 2 * HOUR, due - 30 * HOUR, due - 50 * HOUR, due - 4 * DAY]) {
      const d = JSON.parse((await digest(['-f', 'json'], now)).stdout) as Rec;
      const expected = due < dueSoonHorizon(now);
      expect(d.deadlines.due_soon_until, new Date(now).toISOString()).toBe(new Date(dueSoonHorizon(now)).toISOString());
      expect(d.deadlines.overdue).toBe(0);
      if (expected) {
        soon++;
        expect(d.deadlines.cases.map((c: Rec) => [c.case_id, c.state])).toEqual([[caseId, 'due-soon']]);
        expect(d.deadlines.cases[0].hours_left).toBe(Math.round(((due - now) / HOUR) * 100) / 100);
        const text = (await digest([], now)).stdout;
        expect(text.split('\n')[0]).toMatch(/^Recalls \d{1,2} \w{3}: 1 case due soon · /);
        expect(text.split('\n')[5]).toBe('  due soon  sku KT-100 · Kettle Deluxe');
      } else {
        later++;
        expect(d.deadlines.cases).toEqual([]);
        const text = (await digest([], now)).stdout;
        expect(text).not.toContain('deadlines');
        expect(text.split('\n')[0]).not.toMatch(/due soon|overdue/);
      }
    }
    expect(soon).toBeGreaterThan(0);
    expect(later).toBeGreaterThan(0);
  });

  it('a closed case is no deadline', async () => {
    const clock = fakeClock(due - HOUR);
    const done = await runMainAgainst(
      sandbox,
      ['cases', 'resolve', String(caseId), '--as', 'removed-from-sale', '--db', archive.db],
      { clock },
    );
    expect(done.code, done.stderr).toBe(0);
    const d = JSON.parse((await digest(['-f', 'json'], due + HOUR)).stdout) as Rec;
    expect(d.deadlines).toMatchObject({ overdue: 0, due_soon: 0, cases: [] });
  });

  it('your products finds the case of a row whose key holds a tab, keyed as match --open-cases keyed it', async () => {
    const clock = fakeClock(SANDBOX_START + 2 * HOUR);
    const tabbed = folder.file('tabbed.csv');
    writeFileSync(
      tabbed,
      `sku,name,brand,model\n"KT\t200",Kettle Tab,${recall.product_brand},${recall.product_model_numbers[0]}\n`,
    );
    const open = await runMainAgainst(
      sandbox,
      ['match', '--catalog', tabbed, '--archive', '--db', archive.db, '--open-cases', '--level', 'match'],
      { clock },
    );
    expect(open.code, open.stderr).toBe(0);
    const cases = jsonLines(
      (await runMainAgainst(sandbox, ['cases', '--db', archive.db, '-f', 'jsonl'], { clock })).stdout,
    ) as Rec[];
    const tabCase = cases.find((c) => c.catalog_key === 'sku:KT\t200');
    expect(tabCase).toBeDefined();
    const args = ['--catalog', tabbed, '--since', '2000-01-01', '--until', '2100-01-01', '-f', 'json'];
    const json = JSON.parse((await digest(args, SANDBOX_START + 3 * HOUR)).stdout) as Rec;
    const row = json.products.find((p: Rec) => p.recall_id === recall.id);
    expect(row.case).toEqual({ id: tabCase!.id, status: 'open', due_at: null });
  });
});
