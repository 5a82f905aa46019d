// `digest` in process on both engines: every recall a period stored, monitoring health from sync_runs (a failed run, a gap, a killed run), formats, e-mail.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { editArchive } from '../helpers/archive-edit.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { expectedFeed } from '../helpers/expected.js';
import { ENGINES } from '../helpers/postgres.js';
import { smtpServer } from '../helpers/smtp.js';

let sandbox: Sandbox;
const folder = tempFolder('rf-digest-');
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 80, seed: 31, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

interface DigestJson {
  period: { from: string; to: string };
  recalls: { new: Record<string, unknown>[]; updated: Record<string, unknown>[] };
  counts: { new: number; updated: number; by_severity: { value: string; count: number }[] };
  matches: unknown[] | null;
  health: {
    complete: boolean;
    runs: { ok: number; failed: number; interrupted: number };
    last_ok_sync: string | null;
    gaps: { from: string; to: string; hours: number }[];
    sources_missing: string[];
    sources_checked: boolean;
  };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  const archives = new Map<string, TestArchive>();
  /** A new empty archive on this engine; its --db. */
  const freshDb = async () => {
    const archive = await testArchive(engine);
    archives.set(archive.db, archive);
    return archive.db;
  };
  const runsIn = (db: string) =>
    archives
      .get(db)!
      .rows<{ started_at: string; ended_at: string | null; outcome: string }>(
        'SELECT id, started_at, ended_at, outcome FROM sync_runs ORDER BY id',
      );

  describe('digest', () => {
    it('after a good sync: every recall stored, worst severity first, and monitoring complete', async () => {
      const db = await freshDb();
      expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '--since', '24h', '-f', 'json']);
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout) as DigestJson;
      const expected = expectedFeed(sandbox, { now: FIXED_START });
      expect(d.recalls.new.map((x) => x.id).sort()).toEqual(expected.map((x) => x.id).sort());
      expect(d.recalls.updated).toEqual([]);
      // Records as the API sent them.
      const byId = new Map(expected.map((x) => [x.id, x]));
      for (const rec of d.recalls.new) expect(rec).toEqual(JSON.parse(JSON.stringify(byId.get(rec.id as number))));
      const rank = (s: unknown) => ['serious', 'high', 'medium', 'low'].indexOf(String(s)) >>> 0;
      const ranks = d.recalls.new.map((x) => rank(x.risk_severity));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      const serious = expected.filter((x) => x.risk_severity === 'serious').length;
      expect(d.counts.by_severity.find((c) => c.value === 'serious')?.count).toBe(serious);
      expect(d.matches).toBeNull();
      const runs = await runsIn(db);
      expect(d.health).toEqual({
        complete: true,
        runs: { ok: 1, failed: 0, interrupted: 0 },
        last_ok_sync: runs[0]?.ended_at,
        gaps: [],
        sources_missing: [],
        sources_checked: true,
        writes_settled: true,
      });
      const text = await runMainAgainst(sandbox, ['digest', '--db', db]);
      expect(text.stdout.split('\n')[0]).toBe(
        `Recalls ${new Date(Date.parse(d.period.to)).getUTCDate()} ${new Date(Date.parse(d.period.to)).toUTCString().slice(8, 11)}: ${expected.length} new (${serious} serious) · monitoring complete`,
      );
    });

    it('with a failed sync, a gap and a killed sync: not complete, each named, never "no new recalls"', async () => {
      const db = await freshDb();
      // A 1-hour sync: from the start of the 24-hour period to an hour before it, nothing was fetched.
      expect((await runMainAgainst(sandbox, ['sync', '--db', db, '--hours', '1'])).code).toBe(0);
      sandbox.setFaults({ error500: 1 });
      const failed = await runMainAgainst(sandbox, ['--retries', '0', 'sync', '--db', db]);
      sandbox.setFaults({});
      expect(failed.code).toBe(6);
      // A sync killed two hours ago before it could record its end.
      const killedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
      const inserted = await editArchive(
        archives.get(db)!,
        `INSERT INTO sync_runs (started_at, params) VALUES ('${killedAt}', '{"sources":null,"hours":24}')`,
      );
      expect(inserted).toBe(1);
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '-f', 'json']);
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout) as DigestJson;
      const [good, bad] = await runsIn(db);
      expect(bad?.outcome).toBe('failed');
      expect(d.health.runs).toEqual({ ok: 1, failed: 1, interrupted: 1 });
      expect(d.health.complete).toBe(false);
      expect(d.health.last_ok_sync).toBe(good?.ended_at);
      // The gap: from the start of the period to an hour before the good sync started.
      const gapEnd = new Date(Date.parse(good?.started_at as string) - 3_600_000).toISOString();
      expect(d.health.gaps).toEqual([
        {
          from: d.period.from,
          to: gapEnd,
          hours: Math.round(((Date.parse(gapEnd) - Date.parse(d.period.from)) / 3_600_000) * 100) / 100,
        },
      ]);
      const text = await runMainAgainst(sandbox, ['digest', '--db', db]);
      expect(text.stdout).toContain('Monitoring INCOMPLETE');
      expect(text.stdout).toContain('1 sync failed.');
      expect(text.stdout).toContain('1 sync was interrupted.');
      // Its start is this run's own period start, a moment later than the json run's.
      expect(text.stdout).toMatch(
        new RegExp(`Not fetched: recalls published \\S+ to ${gapEnd.replace(/\./g, '\\.')} \\(`),
      );
      expect(text.stdout.split('\n')[0]).toMatch(/· monitoring INCOMPLETE$/);
      expect(text.stdout.toLowerCase()).not.toMatch(/all clear|\bsafe\b|no new recalls/);
    });

    it('without a key the sources are not checked: said on stderr and in the json, never complete', async () => {
      const db = await freshDb();
      await runMainAgainst(sandbox, ['sync', '--db', db]);
      const r = await runMain(['digest', '--db', db, '-f', 'json']);
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout) as DigestJson;
      expect(d.health).toMatchObject({ complete: false, sources_checked: false, sources_missing: [], gaps: [] });
      expect(r.stderr).toContain('the sources this key may use were not checked');
    });

    it("--catalog adds the matches among the period's recalls; without it nothing is said about products", async () => {
      const db = await freshDb();
      await runMainAgainst(sandbox, ['sync', '--db', db]);
      const target = expectedFeed(sandbox, { now: FIXED_START }).find(
        (x) => x.product_brand && x.product_model_numbers.length > 0,
      )!;
      const catalog = folder.file('products.csv');
      writeFileSync(
        catalog,
        `sku,brand,model,name\nA-1,${target.product_brand},${target.product_model_numbers[0]},Thing\n`,
      );
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '--catalog', catalog, '-f', 'json']);
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout) as DigestJson;
      const rows = d.matches as { level: string; reason: string; recall_id: number; sku: string }[];
      expect(rows).toContainEqual(
        expect.objectContaining({ level: 'match', reason: 'model+brand', recall_id: target.id, sku: 'A-1' }),
      );
      const text = await runMainAgainst(sandbox, ['digest', '--db', db, '--catalog', catalog]);
      expect(text.stdout).toMatch(
        /Your products in the [\d,]+ recalls stored [\d-]+ [\d:]+ UTC to [\d-]+ [\d:]+ UTC: \d+ match(es)? .*\. As pairs of a row and a recall, as recall-feed match counts them: \d+ match(es)? · \d+ possible/,
      );
      const without = await runMainAgainst(sandbox, ['digest', '--db', db]);
      expect(without.stdout).not.toMatch(/catalogue/i);
    });

    it('-f html -o writes one self-contained page; -f markdown escapes what the API sent', async () => {
      const db = await freshDb();
      await runMainAgainst(sandbox, ['sync', '--db', db]);
      const out = folder.file('digest.html');
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '-o', out]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      const html = readFileSync(out, 'utf8');
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html).toContain('<style>');
      // No script and nothing fetched: no src=, no stylesheet link, no @import; only the notices' own links.
      expect(html).not.toMatch(/<script|\bsrc=|<link|@import|url\(/i);
      const md = await runMainAgainst(sandbox, ['digest', '--db', db, '-f', 'markdown']);
      expect(md.stdout.startsWith('# Recalls')).toBe(true);
      expect(md.stdout).toContain('## New (');
    });

    it('--email sends one message with a text and an HTML part listing every new recall, and prints nothing', async () => {
      const db = await freshDb();
      await runMainAgainst(sandbox, ['sync', '--db', db]);
      const smtp = await smtpServer();
      const r = await runMainAgainst(sandbox, [
        'digest',
        '--db',
        db,
        '--email',
        'a@example.test, b@example.test',
        '--email-from',
        'recalls@example.test',
        '--smtp-url',
        smtp.url,
      ]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0]!;
      const expected = expectedFeed(sandbox, { now: FIXED_START });
      const serious = expected.filter((x) => x.risk_severity === 'serious').length;
      expect(mail.rcpt).toEqual(['a@example.test', 'b@example.test']);
      expect(mail.from).toBe('recalls@example.test');
      expect(mail.subject).toMatch(
        new RegExp(`^Recalls \\d{1,2} \\w{3}: ${expected.length} new \\(${serious} serious\\) · monitoring complete$`),
      );
      expect(mail.ids.sort()).toEqual(expected.map((x) => String(x.id)).sort());
      for (const x of expected) expect(mail.html).toContain(`id ${x.id}`);
      expect(r.stderr).not.toContain(smtp.pass);
    });

    it('--email to a server that refuses: exit 11, the server named, the password never', async () => {
      const db = await freshDb();
      await runMainAgainst(sandbox, ['sync', '--db', db]);
      const smtp = await smtpServer({ refuse: 'mailbox unavailable' });
      const r = await runMainAgainst(sandbox, [
        'digest',
        '--db',
        db,
        '--email',
        'a@example.test',
        '--email-from',
        'recalls@example.test',
        '--smtp-url',
        smtp.url,
      ]);
      expect(r.code).toBe(11);
      expect(r.stderr).toContain(`smtp://127.0.0.1:${smtp.port} refused the message`);
      expect(r.stderr).not.toContain(smtp.pass);
      expect(r.stderr).not.toContain(smtp.user);
      expect(r.stdout).toBe('');
    });
  });
});
