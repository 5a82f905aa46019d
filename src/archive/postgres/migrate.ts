// Brings the archive's schema forward on first use, under an advisory lock; a newer or foreign schema is refused untouched.
import type pg from 'pg';
import { ArchiveDatabaseError, ArchiveMissingError, ArchiveTooNewError, NotAnArchiveError } from '../archive-errors.js';
import type { OpenOptions } from '../store.js';
import type { PgTarget } from './connect.js';
import { APPLICATION, MIGRATIONS, quoted, SCHEMA_VERSION, SEARCH_TOKENS_VERSION } from './schema.js';
import { reindexSearch } from './search-reindex.js';

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

/** An identifier in double quotes: a role's name may hold any character. */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The schema's owner when it is a role other than the current one, and whether the current role may act as it (a
 * member of it, or a superuser); undefined when the schema does not exist yet or is the current role's.
 */
async function otherOwner(client: pg.Client, schema: string): Promise<{ name: string; member: boolean } | undefined> {
  const { rows } = await client.query<{ name: string; member: boolean }>(
    `SELECT r.rolname AS name, pg_has_role(n.nspowner, 'MEMBER') AS member
       FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid = n.nspowner
      WHERE n.nspname = $1 AND r.rolname <> current_user`,
    [schema],
  );
  return rows[0];
}

/** An archive behind this build that only its schema's owner (or a member of that role) may bring forward. */
const notTheOwner = (target: PgTarget, found: number, owner: string) =>
  new ArchiveDatabaseError(
    target.name,
    'owner',
    `the archive in schema ${target.schema} of database ${target.database} on ${target.host} needs an upgrade from version ${found}: run it once as the schema's owner (${owner}), e.g. \`recall-feed sync\``,
  );

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
    // What a migration creates belongs to the schema's owner, whoever runs it (a case worker given the syncing role's
    // rights): a table of its own would lock the owner's syncs out of it. Another role may bring nothing forward.
    const owner = await otherOwner(client, target.schema);
    if (owner && !owner.member && found > 0) throw notTheOwner(target, found, owner.name);
    await client.query('BEGIN');
    try {
      // PostgreSQL 16 may grant membership without SET: then this role may not act as the owner either.
      if (owner?.member)
        await client.query(`SET LOCAL ROLE ${ident(owner.name)}`).catch((err: { code?: unknown }) => {
          throw err.code === '42501' && found > 0 ? notTheOwner(target, found, owner.name) : err;
        });
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      for (let v = found; v < SCHEMA_VERSION; v++) await client.query((MIGRATIONS[v] as (x: string) => string)(s));
      // The tokens are made in JavaScript, so no SQL migration can make them: recalls indexed before version 7 are
      // indexed again here, in the migration's transaction, as FTS5 tokenizes them (search-reindex.ts).
      if (found > 0 && found < SEARCH_TOKENS_VERSION) await reindexSearch(client, s);
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
