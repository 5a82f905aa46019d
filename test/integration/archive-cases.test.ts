// The case store on both engines: the hash chain recomputed here, the sync's reopen hook and its transaction, the migrations.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type CaseCandidate, openArchive } from '../../src/archive/index.js';
import { checkChain, type StoredEvent } from '../../src/archive/cases-chain.js';
import { describeChanges } from '../../src/archive/cases-changes.js';
import { MIGRATIONS as PG_MIGRATIONS, SCHEMA_VERSION as PG_VERSION } from '../../src/archive/postgres/schema.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/archive/sqlite/schema.js';
import { sampleRecords, tempFolder } from '../helpers/archive.js';
import { archiveEditor, editArchive, editedCopy } from '../helpers/archive-edit.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { adminQuery, ENGINES, freshDatabase } from '../helpers/postgres.js';

const AT = '2026-02-01T10:00:00.000Z';
const by = (actor: string, note: string | null = null) => ({ at: AT, actor, note });

function candidate(recallId: number, sku: string): CaseCandidate {
  return {
    recallId,
    catalogKey: `sku:${sku}`,
    level: 'match',
    reason: 'barcode',
    catalogRow: { sku, gtin: '4006381333931' },
    alertTitle: 'a title',
  };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  async function archiveWith(count = 20) {
    const where = await testArchive(engine);
    const archive = await openArchive(where.db, { create: true });
    const records = sampleRecords(count, 5);
    const run = await archive.beginRun({}, Date.parse(AT));
    await archive.upsertPage(records, run, Date.now);
    return { where, archive, records };
  }

  /** The stored events as StoredEvent has them (numbers for seq and case_id on both engines). */
  async function events(where: TestArchive): Promise<StoredEvent[]> {
    const rows = await where.rows<StoredEvent>('SELECT * FROM case_events ORDER BY seq');
    return rows.map((e) => ({ ...e, seq: Number(e.seq), case_id: Number(e.case_id) }));
  }

  describe('cases opened by the version before due times and titles in the chain', () => {
    it('still verify, and show the title their row holds', async () => {
      const { where, archive, records } = await archiveWith();
      await archive.openCases([candidate(records[0]!.id, 'A')], by('m'));
      await archive.stepCase(1, { kind: 'wait' }, by('alice'));
      await archive.close();
      // The opened event as the earlier version wrote it: the pair and the row only, the chain hashed over that.
      const legacy = JSON.stringify({
        catalog_key: 'sku:A',
        catalog_row: { gtin: '4006381333931', sku: 'A' },
        level: 'match',
        reason: 'barcode',
        recall_id: records[0]!.id,
      });
      let prev = '0'.repeat(64);
      for (const e of await events(where)) {
        const detail = e.seq === 1 ? legacy : e.detail;
        const fields = [e.seq, e.case_id, e.at, e.actor, e.action, e.status, e.outcome, e.note, detail, prev];
        const hash = createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
        const p = (n: number) => (engine === 'sqlite' ? '?' : `$${n}`);
        await editArchive(
          where,
          `UPDATE case_events SET detail = ${p(1)}, prev_hash = ${p(2)}, hash = ${p(3)} WHERE seq = ${p(4)}`,
          [detail, prev, hash, e.seq],
        );
        prev = hash;
      }
      const reopened = await openArchive(where.db, { create: false });
      try {
        expect((await reopened.verifyCases()).broken).toBeUndefined();
        const [c] = await reopened.cases({ statuses: ['waiting'] });
        expect(c).toMatchObject({ id: 1, alert_title: 'a title', due_at: null, sla: null, product_name: null });
      } finally {
        await reopened.close();
      }
    });
  });

  describe('the case log', () => {
    it('chains each event: sha256 of the JSON array of its fields and the previous hash, as docs/cases.md says', async () => {
      const { where, archive, records } = await archiveWith();
      await archive.openCases([candidate(records[0]!.id, 'A'), candidate(records[1]!.id, 'B')], by('m'));
      await archive.stepCase(1, { kind: 'resolve', outcome: 'not-our-product' }, by('alice', 'other "brand"'));
      await archive.close();
      let prev = '0'.repeat(64);
      const stored = await events(where);
      expect(stored.map((e) => e.seq)).toEqual([1, 2, 3]);
      for (const e of stored) {
        const text = JSON.stringify([
          e.seq,
          e.case_id,
          e.at,
          e.actor,
          e.action,
          e.status,
          e.outcome,
          e.note,
          e.detail,
          prev,
        ]);
        expect(e.prev_hash).toBe(prev);
        expect(e.hash).toBe(createHash('sha256').update(text).digest('hex'));
        prev = e.hash;
      }
      expect(checkChain(stored)).toEqual({ events: 3, head: prev, broken: undefined });
    });

    it('verify fails after any column of any stored event is edited', async () => {
      const { where, archive, records } = await archiveWith();
      await archive.openCases([candidate(records[0]!.id, 'A'), candidate(records[1]!.id, 'B')], by('m'));
      await archive.stepCase(2, { kind: 'resolve', outcome: 'action-taken' }, by('alice', 'done'));
      await archive.stepCase(1, { kind: 'wait' }, by('bob', 'lab'));
      expect((await archive.verifyCases()).broken).toBeUndefined();
      await archive.close();
      // Each edit changes the value, whatever it was.
      const edits: Record<string, string> = {
        seq: 'seq = seq + 100',
        case_id: 'case_id = 3 - case_id',
        at: "at = at || 'x'",
        actor: "actor = actor || 'x'",
        action: "action = action || 'x'",
        status: "status = status || 'x'",
        outcome: "outcome = coalesce(outcome, '') || 'x'",
        note: "note = coalesce(note, '') || 'x'",
        detail: "detail = coalesce(detail, '') || 'x'",
        prev_hash: "prev_hash = prev_hash || 'x'",
        hash: "hash = hash || 'x'",
      };
      // One copy, its events kept aside and put back after each edit: a copy per edit (44 PostgreSQL databases) took
      // most of this test's time.
      const copy = { ...where, db: (await editedCopy(where)).db };
      // One connection edits and one archive verifies, both kept open: a connection per edit was most of the rest.
      const editor = await archiveEditor(copy);
      const reopened = await openArchive(copy.db, { create: false });
      try {
        await editor.run('CREATE TABLE events_kept AS SELECT * FROM case_events');
        for (const seq of [1, 2, 3, 4]) {
          for (const [column, set] of Object.entries(edits)) {
            expect(await editor.run(`UPDATE case_events SET ${set} WHERE seq = ${seq}`)).toBe(1);
            expect((await reopened.verifyCases()).broken, `${column} of event ${seq}`).toBeDefined();
            await editor.run('DELETE FROM case_events');
            expect(await editor.run('INSERT INTO case_events SELECT * FROM events_kept')).toBe(4);
          }
        }
      } finally {
        await reopened.close();
        await editor.close();
      }
      // Put back, the events verify again: each break above was the edit's.
      const restored = await openArchive(copy.db, { create: false });
      expect((await restored.verifyCases()).broken).toBeUndefined();
      await restored.close();
    });

    it('a catalogue row, title and note holding NUL still verify, their case and events agreeing as stored', async () => {
      const { archive, records } = await archiveWith();
      const nul = { ...candidate(records[0]!.id, 'N\u0000UL'), alertTitle: 'a\u0000title', reason: 'bar\u0000code' };
      await archive.openCases([nul], by('m'));
      await archive.stepCase(1, { kind: 'wait' }, by('alice', 'a note\u0000'));
      const check = await archive.verifyCases();
      const [c] = await archive.cases({ statuses: ['waiting'] });
      await archive.close();
      expect(check).toMatchObject({ events: 2, cases: 1, broken: undefined });
      // PostgreSQL's text has no NUL: U+FFFD stands in for it (docs/archive.md); SQLite keeps it.
      const kept = (text: string) => (engine === 'postgres' ? text.replaceAll('\u0000', '\uFFFD') : text);
      expect(c?.alert_title).toBe(kept('a\u0000title'));
      expect(c?.catalog_key).toBe(kept('sku:N\u0000UL'));
    });

    it('a title, row and note holding a lone surrogate still verify: U+FFFD stands in for it, case and events alike', async () => {
      const { archive, records } = await archiveWith();
      const odd = { ...candidate(records[0]!.id, 'S\ud800KU'), alertTitle: 'a\udc00title\u0000' };
      await archive.openCases([odd], by('m'));
      await archive.stepCase(1, { kind: 'wait' }, by('alice', 'note \ud83d'));
      const check = await archive.verifyCases();
      const [c] = await archive.cases({ statuses: ['waiting'] });
      await archive.close();
      expect(check).toMatchObject({ events: 2, cases: 1, broken: undefined });
      const nul = engine === 'postgres' ? '\uFFFD' : '\u0000';
      expect(c?.alert_title).toBe(`a\uFFFDtitle${nul}`);
      expect(c?.catalog_key).toBe('sku:S\uFFFDKU');
    });

    it('opening the same pairs again opens nothing', async () => {
      const { archive, records } = await archiveWith();
      const pairs = [candidate(records[0]!.id, 'A'), candidate(records[0]!.id, 'B')];
      const first = await archive.openCases(pairs, by('m'));
      expect(first).toMatchObject({ opened: 2, existing: 0 });
      const second = await archive.openCases([...pairs, candidate(records[2]!.id, 'A')], by('m'));
      expect(second).toMatchObject({ opened: 1, existing: 2 });
      const open = await archive.cases({ statuses: ['open'] });
      expect(open.map((c) => c.catalog_key)).toEqual(['sku:A', 'sku:B', 'sku:A']);
      // Each candidate's case, in the candidates' order: the two already there, then the new one.
      expect(first.ids).toEqual(open.slice(0, 2).map((c) => c.id));
      expect(second.ids).toEqual(open.map((c) => c.id));
      await archive.close();
    });
  });

  describe('a sync storing a new version', () => {
    it('reopens the closed case and notes the change on the others, in the page transaction', async () => {
      const { archive, records } = await archiveWith();
      const target = records[3]!;
      await archive.openCases(
        [candidate(target.id, 'A'), candidate(target.id, 'B'), candidate(records[4]!.id, 'C')],
        by('m'),
      );
      await archive.stepCase(1, { kind: 'resolve', outcome: 'removed-from-sale' }, by('alice'));
      await archive.stepCase(2, { kind: 'wait' }, by('bob'));
      const next = { ...target, risk_severity: 'changed-severity', updated_at: '2030-01-01T00:00:00' };

      // A page that fails part-way stores neither the version nor the events.
      const run = await archive.beginRun({}, Date.parse(AT));
      await expect(archive.upsertPage([next, { id: 'not a number' } as never], run, Date.now)).rejects.toThrow();
      expect((await archive.caseWithRecall(1)).case.status).toBe('closed');

      await archive.upsertPage([next], run, Date.now);
      const [a, b, c] = await archive.cases({ statuses: ['open', 'waiting', 'closed'] });
      expect(a!.status).toBe('open');
      expect(a!.events.map((e) => [e.action, e.actor])).toEqual([
        ['opened', 'm'],
        ['resolved', 'alice'],
        ['reopened', 'recall-feed sync'],
      ]);
      const note = `recall updated to version 2: risk_severity: ${target.risk_severity} → changed-severity; updated_at: ${target.updated_at} → 2030-01-01T00:00:00`;
      expect(a!.events[2]!.note).toBe(note);
      expect(b!.status).toBe('waiting');
      expect(b!.events.at(-1)).toMatchObject({ action: 'recall-updated', status: 'waiting', note });
      expect(c!.events.map((e) => e.action)).toEqual(['opened']);
      expect((await archive.verifyCases()).broken).toBeUndefined();
      await archive.close();
    });

    it('a sync page and case steps from another connection at the same time never fork the chain', async () => {
      const { where, archive, records } = await archiveWith();
      const picked = records.slice(0, 6);
      await archive.openCases(
        picked.map((r, i) => candidate(r.id, `S${i}`)),
        by('m'),
      );
      const other = await openArchive(where.db, { create: false });
      const run = await archive.beginRun({}, Date.parse(AT));
      // Each store is used by one thing at a time (its one connection); the two run side by side.
      const steps = async () => {
        for (const id of [1, 2, 3, 4, 5, 6]) await other.stepCase(id, { kind: 'wait' }, by('bob', `step ${id}`));
      };
      const pages = async () => {
        for (const [i, r] of picked.entries())
          await archive.upsertPage(
            [{ ...r, alert_status: `revised ${i}`, updated_at: '2030-01-01T00:00:00' }],
            run,
            Date.now,
          );
      };
      await Promise.all([steps(), pages()]);
      await other.close();
      // Six opened, six waits, six "recall updated": eighteen events, one unbroken chain.
      const check = await archive.verifyCases();
      await archive.close();
      expect(check).toMatchObject({ events: 18, cases: 6, broken: undefined });
      const stored = await events(where);
      expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
      expect(checkChain(stored).broken).toBeUndefined();
    });
  });
});

describe('the pure parts', () => {
  it('checkChain names the first edited, missing or reordered event', () => {
    const chain: StoredEvent[] = [];
    let prev = '0'.repeat(64);
    for (let seq = 1; seq <= 4; seq++) {
      const e = {
        seq,
        case_id: 1,
        at: AT,
        actor: 'x',
        action: 'opened',
        status: 'open',
        outcome: null,
        note: null,
        detail: null,
        prev_hash: prev,
      };
      const hash = createHash('sha256')
        .update(JSON.stringify([seq, 1, AT, 'x', 'opened', 'open', null, null, null, prev]))
        .digest('hex');
      chain.push({ ...e, hash });
      prev = hash;
    }
    expect(checkChain(chain).broken).toBeUndefined();
    const edited = chain.map((e) => (e.seq === 2 ? { ...e, actor: 'y' } : e));
    expect(checkChain(edited).broken).toMatchObject({
      seq: 2,
      problem: 'event 2 (case 1) was edited: its hash does not match',
    });
    expect(checkChain(chain.filter((e) => e.seq !== 3)).broken).toMatchObject({
      seq: 3,
      problem: 'event 3 is missing (removed?)',
    });
    // An event removed and the rest renumbered: the next one no longer follows.
    const renumbered = chain.filter((e) => e.seq !== 2).map((e) => (e.seq > 2 ? { ...e, seq: e.seq - 1 } : e));
    expect(checkChain(renumbered).broken).toMatchObject({
      seq: 2,
      problem: 'event 2 does not follow event 1: the chain was changed',
    });
  });

  it('describeChanges quotes short values and only names long or structured ones', () => {
    expect(
      describeChanges(
        { a: 1, b: 'x', c: ['p'], d: 'y'.repeat(100), gone: true },
        { a: 2, b: 'x', c: ['q'], d: 'z'.repeat(100), added: null },
      ),
    ).toEqual(['a: 1 → 2', 'c changed', 'd changed', 'added: absent → none', 'gone: true → absent']);
  });
});

describe('migrations', () => {
  it('bring a version 1 archive forward with its recalls, and add the case tables', async () => {
    const file = tempFolder('rf-cases-mig-').file('v1.db');
    const db = new Database(file);
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.pragma(`application_id = ${0x52434641}`);
    db.prepare(
      "INSERT INTO recalls (id, version, filter_severity, filter_status, filter_risk, filter_jurisdiction, raw) VALUES (7, 1, '', '', '', '', '{\"id\":7}')",
    ).run();
    db.close();
    const archive = await openArchive(file, { create: false });
    expect((await archive.extent()).total).toBe(1);
    await archive.close();
    const after = new Database(file, { readonly: true });
    const tables = after
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'case%' ORDER BY name")
      .all();
    const version = after.pragma('user_version', { simple: true });
    after.close();
    expect(tables).toEqual([{ name: 'case_events' }, { name: 'cases' }]);
    expect(version).toBe(SCHEMA_VERSION);
  });

  it.skipIf(!ENGINES[1]!.available)(
    'bring a version 1 PostgreSQL archive forward with its recalls, and add the case tables',
    async () => {
      const { url, name } = await freshDatabase('rf_cases_mig');
      const s = '"recall_feed"';
      await adminQuery(
        `CREATE SCHEMA ${s}; ${PG_MIGRATIONS[0]!(s)};
         INSERT INTO ${s}.archive_meta VALUES ('application', 'recall-feed'), ('schema_version', '1');
         INSERT INTO ${s}.recalls (id, version, filter_severity, filter_status, filter_risk, filter_jurisdiction, raw, search)
           VALUES (7, 1, '{}', '{}', '{}', '{}', '{"id":7}', '')`,
        [],
        name,
      );
      const archive = await openArchive(url, { create: false });
      expect((await archive.extent()).total).toBe(1);
      await archive.close();
      const tables = await adminQuery(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'recall_feed' AND tablename LIKE 'case%' ORDER BY 1",
        [],
        name,
      );
      const meta = await adminQuery(`SELECT value FROM ${s}.archive_meta WHERE key = 'schema_version'`, [], name);
      expect(tables).toEqual([{ tablename: 'case_events' }, { tablename: 'cases' }]);
      expect(meta).toEqual([{ value: String(PG_VERSION) }]);
    },
  );
});
