// What --db names: a SQLite file, or a PostgreSQL URL (its schema, and a name to show without the password). No deps.

export const DEFAULT_SCHEMA = 'recall_feed';

/**
 * A PostgreSQL schema name we create and quote: a plain lower-case identifier, so it never needs escaping, and SQL that
 * names it unquoted (docs/archive.md's GRANT examples) finds it: PostgreSQL folds unquoted names to lower case.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;
/** PostgreSQL's longest identifier (NAMEDATALEN - 1 bytes; ours are ASCII). */
const SCHEMA_MAX = 63;
const SCHEMA_HINT = 'a schema name is lower-case letters, digits and _, up to 63 of them: --db-schema team_a';

/** The sslmode values pg knows (libpq's six, and pg's own no-verify); any other is a typo pg would take as TLS on. */
const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']);

export type DbTarget =
  | {
      kind: 'sqlite';
      file: string;
      name: string;
      /** Its folder is the default archives', which a sync creates when missing (archiveTarget, mayCreateFolder). */
      createsFolder?: true;
    }
  | {
      kind: 'postgres';
      /** The URL pg connects with: password included, `schema` taken out. */
      url: string;
      schema: string;
      /** `postgres://user@host:port/db` (plus ` schema x` when not the default): never the password. */
      name: string;
      /** The server pg connects to, as pg works it out (pgServer): the URL, then libpq's PG* variables, then defaults. */
      host: string;
      port: number;
      database: string;
    };

export class DbTargetError extends Error {
  override name = 'DbTargetError';
  /** What to do instead, when more to the point than the general example of a URL. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
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

/**
 * The host, port and database pg connects to for `url`, worked out as pg does it (pg-connection-string, then its
 * ConnectionParameters): `?host=`, `?port=` and `?user=` before the URL's own parts, then libpq's PGHOST, PGPORT,
 * PGUSER and PGDATABASE from the process's environment (which pg reads), then localhost, 5432, $USER, and the user's
 * name for the database. `url` is the URL as checked, its host a stand-in when `noHost`.
 */
function pgServer(
  url: URL,
  noHost: boolean,
  env: Record<string, string | undefined>,
): { host: string; port: number; database: string } {
  const q = url.searchParams;
  const user = q.get('user') || decodeURIComponent(url.username) || env.PGUSER || env.USER || '';
  const hostname = noHost ? '' : decodeURIComponent(url.hostname).replace(/^\[(.+)\]$/, '$1');
  const host = q.get('host') || hostname || env.PGHOST || 'localhost';
  const port = Number.parseInt(q.get('port') || url.port || env.PGPORT || '5432', 10);
  const path = url.pathname.slice(1);
  const database = (path ? decodeURI(path) : '') || env.PGDATABASE || user;
  return { host, port, database };
}

/** Refuses a schema name PostgreSQL would fold, truncate or need escaped, saying which. */
function checkSchema(schema: string): void {
  if (schema.length > SCHEMA_MAX)
    throw new DbTargetError(
      `schema name '${schema}' is ${schema.length} characters long: PostgreSQL's names are at most ${SCHEMA_MAX}`,
      SCHEMA_HINT,
    );
  if (SCHEMA_NAME.test(schema)) return;
  if (SCHEMA_NAME.test(schema.toLowerCase()))
    throw new DbTargetError(
      `schema name '${schema}' has capitals: PostgreSQL folds names written without quotes to lower case, so SQL naming it (GRANT USAGE ON SCHEMA ${schema}) would find ${schema.toLowerCase()}`,
      `use --db-schema ${schema.toLowerCase()}; to keep an archive made in "${schema}" before, rename it first: ALTER SCHEMA "${schema}" RENAME TO ${schema.toLowerCase()}`,
    );
  throw new DbTargetError(
    `schema name '${schema}' must be lower-case letters, digits and _, not starting with a digit`,
    SCHEMA_HINT,
  );
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
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && !SSL_MODES.has(sslmode))
    throw new DbTargetError(
      `${maskDbUrl(value)}: sslmode '${sslmode}' is none of ${[...SSL_MODES].join(', ')}`,
      'check sslmode in the --db URL (docs/archive.md: TLS)',
    );
  settleSslMode(url);
  const fromUrl = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const schema = schemaFlag ?? fromUrl ?? DEFAULT_SCHEMA;
  checkSchema(schema);
  const hostname = noHost ? '' : url.hostname;
  // Where pg really connects, so that messages and match's state name the server and database it reaches.
  const { host, port: serverPort, database } = pgServer(url, noHost, process.env);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const port = url.port ? `:${url.port}` : '';
  const name = `postgres://${user}${hostname}${port}/${url.pathname.replace(/^\//, '')}${schema === DEFAULT_SCHEMA ? '' : ` schema ${schema}`}`;
  // The stand-in taken out of the host alone (URL() drops the `@` of an empty user: postgres://@/db).
  const pgUrl = noHost ? url.toString().replace(/^([^:]+:\/\/(?:[^@/?#]*@)?)no-host\.invalid/, '$1') : url.toString();
  return { kind: 'postgres', url: pgUrl, schema, name, host, port: serverPort, database };
}
