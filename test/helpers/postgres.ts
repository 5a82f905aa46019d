// The test PostgreSQL server (test/global/postgres-cluster.ts): a fresh database per test file, and the engines to run a suite on.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { deferCleanup } from './cleanup.js';

/** The admin URL of the test server, or undefined when the run has none (the PostgreSQL half is skipped). */
export function pgAdminUrl(): string | undefined {
  return inject('pgUrl') || undefined;
}

/** `url` with another database (and, when given, user and password). */
export function withDatabase(url: string, database: string, user?: { name: string; password: string }): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (user) {
    u.username = encodeURIComponent(user.name);
    u.password = encodeURIComponent(user.password);
  }
  return u.toString();
}

/** Runs SQL as the server's superuser, in `database` (default: the admin URL's). */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string,
  params: unknown[] = [],
  database?: string,
): Promise<T[]> {
  const admin = pgAdminUrl();
  if (!admin) throw new Error('no test PostgreSQL server');
  const client = new pg.Client({ connectionString: database ? withDatabase(admin, database) : admin });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A new empty database, dropped (connections and all) when the test or file that made it ends; its URL. */
export async function freshDatabase(prefix = 'rf'): Promise<{ url: string; name: string }> {
  const admin = pgAdminUrl();
  if (!admin) throw new Error('no test PostgreSQL server');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  // CREATE DATABASE cannot run inside a transaction block: a statement of its own.
  await adminQuery(`CREATE DATABASE ${name}`);
  deferCleanup(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return { url: withDatabase(admin, name), name };
}

export type Engine = 'sqlite' | 'postgres';

/** The engines a suite runs on; `available` is false for PostgreSQL when the run has no server. */
export const ENGINES: { engine: Engine; available: boolean }[] = [
  { engine: 'sqlite', available: true },
  { engine: 'postgres', available: pgAdminUrl() !== undefined },
];

/** A copy of the database `url` names (nobody may be connected to it), dropped when the test or file ends; its URL. */
export async function copyDatabase(url: string, prefix = 'rf_copy'): Promise<string> {
  const source = decodeURIComponent(new URL(url).pathname.slice(1));
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE "${source}"`);
  deferCleanup(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}
