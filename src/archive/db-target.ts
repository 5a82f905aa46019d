// What --db names: a SQLite file, or a PostgreSQL URL (its schema, and a name to show without the password). No deps.

export const DEFAULT_SCHEMA = 'recall_feed';

/** A PostgreSQL schema name we create and quote: a plain identifier, so it never needs escaping. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export type DbTarget =
  | { kind: 'sqlite'; file: string; name: string }
  | {
      kind: 'postgres';
      /** The URL pg connects with: password included, `schema` taken out. */
      url: string;
      schema: string;
      /** `postgres://user@host:port/db` (plus ` schema x` when not the default): never the password. */
      name: string;
      host: string;
      database: string;
    };

export class DbTargetError extends Error {
  override name = 'DbTargetError';
}

/** True for `postgres://` and `postgresql://` (any case): everything else names a SQLite file. */
export function isDbUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password replaced by `****`; anything that is not a database URL as it is. */
export function maskDbUrl(value: string): string {
  if (!isDbUrl(value)) return value;
  // Not through URL(): a password with unescaped characters (even @) must still be hidden, so everything
  // between the first ':' of the user part and the last '@' goes; a ?password= parameter too.
  const scheme = value.indexOf('//') + 2;
  const at = value.lastIndexOf('@');
  let masked = value;
  if (at > scheme) {
    const colon = value.indexOf(':', scheme);
    if (colon !== -1 && colon < at) masked = `${value.slice(0, colon + 1)}****${value.slice(at)}`;
  }
  return masked.replace(/([?&]password=)[^&#]*/gi, '$1****');
}

export function dbTarget(value: string, schemaFlag?: string): DbTarget {
  if (!isDbUrl(value)) {
    if (schemaFlag !== undefined) throw new DbTargetError('--db-schema applies to a PostgreSQL URL, not a file');
    return { kind: 'sqlite', file: value, name: value };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DbTargetError(`${maskDbUrl(value)} is not a valid database URL`);
  }
  const fromUrl = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const schema = schemaFlag ?? fromUrl ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new DbTargetError(`schema name '${schema}' must be letters, digits and _, not starting with a digit`);
  }
  const host = decodeURIComponent(url.hostname) || 'localhost';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const port = url.port ? `:${url.port}` : '';
  const name = `postgres://${user}${url.hostname}${port}/${url.pathname.replace(/^\//, '')}${schema === DEFAULT_SCHEMA ? '' : ` schema ${schema}`}`;
  return { kind: 'postgres', url: url.toString(), schema, name, host, database };
}
