// appendEvent: a case's first event (opened, its row just inserted) costs no lookup of the case's last event; every
// later one still reads it, so a step from a host whose clock is behind is stamped at that event (never before it).
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkChain, type StoredEvent } from '../../src/archive/cases-chain.js';
import { appendEvent } from '../../src/archive/features/cases-events.js';
import { SqliteClient } from '../../src/archive/sqlite/client.js';
import { sqliteDialect as d } from '../../src/archive/sqlite/dialect.js';
import { MIGRATIONS } from '../../src/archive/sqlite/schema.js';

/** An archive in memory at the current schema, and every SELECT its client was asked for. */
function archive(): { client: SqliteClient; selects: string[]; close: () => void } {
  const db = new Database(':memory:');
  for (const sql of MIGRATIONS) db.exec(sql);
  const client = new SqliteClient(db);
  const selects: string[] = [];
  const get = client.get.bind(client);
  client.get = ((sql: string, params?: readonly unknown[]) => {
    selects.push(sql.replace(/\s+/g, ' ').trim());
    return get(sql, params);
  }) as typeof client.get;
  return { client, selects, close: () => db.close() };
}

function newCase(client: SqliteClient, id: number, at: string): Promise<number> {
  return client.run(
    `INSERT INTO cases (id, recall_id, catalog_key, level, reason, catalog_row, alert_title, status, outcome, opened_at, updated_at)
     VALUES (?, 1, ?, 'exact', 'barcode', '{}', NULL, 'open', NULL, ?, ?)`,
    [id, `A${id}`, at, at],
  );
}

const HEAD = 'SELECT seq, hash FROM case_events ORDER BY seq DESC LIMIT 1';
const LAST_OF_CASE = 'SELECT at FROM case_events WHERE case_id = ? ORDER BY seq DESC LIMIT 1';
const by = { actor: 'alice', outcome: null, note: null, detail: null };

describe('appendEvent', () => {
  it('an opened event reads the log head only; a later step also its case’s last event, and never goes back', async () => {
    const { client, selects, close } = archive();
    onTestFinished(close);
    const opened = '2026-06-01T12:00:00.000Z';
    const stored: StoredEvent[] = [];
    await client.transaction('write', async () => {
      for (const id of [1, 2]) {
        await newCase(client, id, opened);
        stored.push(await appendEvent(client, d, { caseId: id, at: opened, action: 'opened', status: 'open', ...by }));
      }
    });
    expect(selects).toEqual([HEAD, HEAD]);
    expect(stored.map((e) => [e.seq, e.case_id, e.at, e.action])).toEqual([
      [1, 1, opened, 'opened'],
      [2, 2, opened, 'opened'],
    ]);

    selects.length = 0;
    // A host whose clock is 4 days behind: the step is stamped at the case's opening.
    const behind = '2026-05-28T12:00:00.000Z';
    const step = await client.transaction('write', () =>
      appendEvent(client, d, { caseId: 1, at: behind, action: 'waiting', status: 'waiting', ...by }),
    );
    expect(selects).toEqual([HEAD, LAST_OF_CASE]);
    expect([step.seq, step.at, step.status]).toEqual([3, opened, 'waiting']);
    const events = await client.all<StoredEvent>('SELECT * FROM case_events ORDER BY seq');
    expect(checkChain(events)).toMatchObject({ events: 3, head: step.hash, broken: undefined });
    expect(await client.get('SELECT status, updated_at FROM cases WHERE id = 1')).toEqual({
      status: 'waiting',
      updated_at: opened,
    });
  });
});
