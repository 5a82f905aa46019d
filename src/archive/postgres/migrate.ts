// Brings the archive's schema forward on first use, under an advisory lock; a newer or foreign schema is refused untouched.
import type pg from 'pg';
import { ArchiveDatabaseError, ArchiveMissingError, ArchiveTooNewError, NotAnArchiveError } from '../archive-errors.js';
import type { OpenOptions } from '../store.js';
import type { PgTarget } from './connect.js';
import { APPLICATION, MIGRATIONS, quoted, SCHEMA_VERSION } from './schema.js';

/** How long a writer waits for another's lock (the write lock, the migration lock): SQLite's busy timeout. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/** Advisory lock keys: hashtext() of a name per schema, so two archives in one database never wait for each other. */
export const lockName = (schema: string, what: 'migrate' | 'write') => `recall-feed ${schema} ${what}`;

/** The schema's version: 0 when it holds nothing; refuses a schema with tables of another program. */
async function versionOf(client: pg.Client, target: PgTarget): Promise<number> {
  const s = quoted(target.schema);
  const found = await client.query<{ meta: boolean; tables: number }>(
    `SELECT to_regclass($1) IS NOT NULL AS meta,
            (SELECT count(*)::int FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = $2 AND c.relkind IN ('r', 'v', 'p')) AS tables`,
    [`${s}.archive_meta`, target.schema],
  );
  const row = found.rows[0] as { meta: boolean; tables: number };
  if (!row.meta) {
    if (row.tables > 0)
      throw new NotAnArchiveError(target.name, `schema ${target.schema} holds tables of another program`);
    return 0;
  }
  const meta = await client.query<{ key: string; value: string }>(`SELECT key, value FROM ${s}.archive_meta`);
  const values = new Map(meta.rows.map((r) => [r.key, r.value]));
  if (values.get('application') !== APPLICATION)
    throw new NotAnArchiveError(target.name, `schema ${target.schema} holds tables of another program`);
  return Number(values.get('schema_version') ?? 0);
}

/**
 * Checks (read-only) or brings forward (otherwise) the archive's schema before anything else uses it; the version
 * it leaves (a read-only open may find an older one).
 */
export async function prepareSchema(client: pg.Client, target: PgTarget, opts: OpenOptions): Promise<number> {
  if (opts.readOnly) {
    const found = await versionOf(client, target);
    if (found === 0) throw new ArchiveMissingError(target.name);
    if (found > SCHEMA_VERSION) throw new ArchiveTooNewError(target.name, found, SCHEMA_VERSION);
    return found;
  }
  // Two first runs at once: the second waits here (within bounds), then finds the version the first one wrote.
  const waitMs = opts.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.round(waitMs))}`);
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName(target.schema, 'migrate')]);
  } catch (err) {
    if ((err as { code?: unknown }).code !== '55P03') throw err;
    throw new ArchiveDatabaseError(
      target.name,
      'lock',
      `another recall-feed has been preparing the archive's schema in database ${target.database} on ${target.host} for more than ${waitMs / 1000} s; nothing was written`,
    );
  } finally {
    await client.query('RESET lock_timeout').catch(() => {});
  }
  try {
    const found = await versionOf(client, target);
    if (found > SCHEMA_VERSION) throw new ArchiveTooNewError(target.name, found, SCHEMA_VERSION);
    if (found === SCHEMA_VERSION) return found;
    if (found === 0 && !opts.create) throw new ArchiveMissingError(target.name);
    const s = quoted(target.schema);
    await client.query('BEGIN');
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      for (let v = found; v < SCHEMA_VERSION; v++) await client.query((MIGRATIONS[v] as (x: string) => string)(s));
      await client.query(
        `INSERT INTO ${s}.archive_meta (key, value) VALUES ('application', $1), ('schema_version', $2)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [APPLICATION, String(SCHEMA_VERSION)],
      );
      await client.query('COMMIT');
      return SCHEMA_VERSION;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName(target.schema, 'migrate')]).catch(() => {});
  }
}
