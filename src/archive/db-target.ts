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

/** True for `postgres://` and `postgresql://` (any case, white space around ignored): everything else names a SQLite file. */
export function isDbUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** A scheme of two or more letters and a colon (`pg://`, `postgres:/h`, `http:`): a URL, never a file name we take. */
const URL_LIKE = /^([a-z][a-z0-9+.-]+:\/*)(.*)$/is;

/**
 * Whether `value` looks like a URL (see URL_LIKE), or a database URL that lost its colon (`postgres//u:p@h/d`, which
 * as a path would put the password in a folder's name); a drive letter (`C:`) or `./a:b.db` does not.
 */
export function looksLikeUrl(value: string): boolean {
  const text = value.trim();
  return URL_LIKE.test(text) || /^postgres(ql)?\/\//i.test(text) || text.includes('://');
}

/** The URL with its password replaced by `****`; anything that does not look like a URL as it is. */
export function maskDbUrl(value: string): string {
  const parts = URL_LIKE.exec(value.trim());
  if (!parts) return looksLikeUrl(value) ? value.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1****@') : value;
  // Not through URL(): a password with unescaped characters (even @) must still be hidden, so everything
  // between the first ':' of the user part and the last '@' goes; a ?password= parameter too. A mistyped
  // scheme (pg://, postgres:/) is masked the same way: its password is as secret.
  const [, scheme, rest] = parts as unknown as [string, string, string];
  const at = rest.lastIndexOf('@');
  let masked = rest;
  if (at > 0) {
    const colon = rest.indexOf(':');
    if (colon !== -1 && colon < at) masked = `${rest.slice(0, colon + 1)}****${rest.slice(at)}`;
  }
  return `${scheme}${masked}`.replace(/([?&]password=)[^&#]*/gi, '$1****');
}

/** Stands in for an empty host while the URL is checked: URL() refuses `postgres://user@/db`, which libpq and pg accept. */
const NO_HOST = 'no-host.invalid';

/**
 * pg warns (nine lines, every run) that it takes prefer, require and verify-ca as verify-full, as it always has; we say so
 * in docs/archive.md and hand it verify-full outright. `uselibpqcompat=true` keeps libpq's meanings, left alone.
 */
function settleSslMode(url: URL): void {
  const mode = url.searchParams.get('sslmode');
  if (url.searchParams.get('uselibpqcompat') === 'true') return;
  if (mode === 'prefer' || mode === 'require' || mode === 'verify-ca') url.searchParams.set('sslmode', 'verify-full');
}

/** Whether a URL part's percent-escapes decode (a lone `%`, or `%E9` that is no UTF-8, do not). */
function decodes(part: string): boolean {
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

export function dbTarget(given: string, schemaFlag?: string): DbTarget {
  // A pasted value often carries a space or a line break: never part of a file name or URL we mean.
  const value = given.trim();
  if (!isDbUrl(value)) {
    if (looksLikeUrl(value))
      throw new DbTargetError(`--db '${maskDbUrl(value)}' looks like a URL, but only postgres:// URLs name a database`);
    if (schemaFlag !== undefined) throw new DbTargetError('--db-schema applies to a PostgreSQL URL, not a file');
    return { kind: 'sqlite', file: value, name: value };
  }
  // An empty host (postgres://user@/db): pg then takes PGHOST, else localhost, as libpq does.
  const authority = /^[^:]+:\/\/([^/?#]*)/.exec(value)?.[1] ?? '';
  const noHost = authority.includes('@') && /@(:\d*)?$/.test(authority);
  let url: URL;
  try {
    url = new URL(noHost ? value.replace(`${authority}`, authority.replace(/@(?=(:\d*)?$)/, `@${NO_HOST}`)) : value);
  } catch {
    throw new DbTargetError(`${maskDbUrl(value)} is not a valid database URL`);
  }
  // pg decodes the user, password and database of the URL (and so do the names below): a % that starts no escape
  // (`100%pure`), or one that is no UTF-8 (`caf%E9`), would end the run with a URIError instead of this line.
  if (![url.username, url.password, url.hostname, url.pathname].every(decodes))
    throw new DbTargetError(
      `${maskDbUrl(value)}: its user name, password or database name holds a % escape that is no UTF-8 text (write a % as %25)`,
    );
  settleSslMode(url);
  const fromUrl = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const schema = schemaFlag ?? fromUrl ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new DbTargetError(`schema name '${schema}' must be letters, digits and _, not starting with a digit`);
  }
  const hostname = noHost ? '' : url.hostname;
  // pg's own fallback for an empty host, so that messages name the server it really tried.
  const host = decodeURIComponent(hostname) || process.env.PGHOST || 'localhost';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const port = url.port ? `:${url.port}` : '';
  const name = `postgres://${user}${hostname}${port}/${url.pathname.replace(/^\//, '')}${schema === DEFAULT_SCHEMA ? '' : ` schema ${schema}`}`;
  const pgUrl = noHost ? url.toString().replace(`@${NO_HOST}`, '@') : url.toString();
  return { kind: 'postgres', url: pgUrl, schema, name, host, database };
}
