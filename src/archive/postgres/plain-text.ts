// Refuses, before any lookup or connection, a --db URL that would send its password to another machine in clear text.
import { isLoopbackHost } from '../../api/loopback.js';
import { type DbTarget, DbTargetError } from '../db-target.js';

type PgTarget = Extract<DbTarget, { kind: 'postgres' }>;

/** The PGSSLMODE values pg honours when the URL decides nothing (ConnectionParameters); any other means no TLS. */
const ENV_MODES = new Set(['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']);

export const PLAIN_TEXT_HINT =
  'add ?sslmode=require (TLS, certificate checked) or ?sslmode=disable to accept an unencrypted connection';

/** The URL's query parameters. Not through URL(): pg's URL may have an empty host (postgres://user@/db), which URL() refuses. */
export function urlParams(url: string): URLSearchParams {
  return new URLSearchParams(/\?([^#]*)/.exec(url)?.[1] ?? '');
}

/**
 * What pg makes of the URL's TLS parameters, mirroring pg-connection-string's parse and pg's ConnectionParameters (the
 * last of a repeated parameter wins; an empty value counts as none): `on`, `off` (chosen: ssl=0, sslmode=disable),
 * `unset` (no TLS, nothing chosen: `?ssl=` with no value, which also keeps pg from reading PGSSLMODE), or undefined
 * when the URL says nothing and pg reads PGSSLMODE.
 */
function urlTls(url: string): 'on' | 'off' | 'unset' | undefined {
  const p = Object.fromEntries(urlParams(url));
  let ssl: string | boolean | undefined = p.ssl;
  if (ssl === 'true' || ssl === '1') ssl = true;
  else if (ssl === '0') ssl = false;
  // Any other non-empty ssl= (no-verify, even false) is a truthy string: pg asks for TLS.
  if (p.sslcert || p.sslkey || p.sslrootcert || p.sslmode) ssl = true;
  if (p.sslnegotiation === 'direct' && ssl === undefined) ssl = true;
  if (p.sslmode === 'disable') ssl = false;
  if (ssl === undefined) return undefined;
  if (ssl === '') return 'unset';
  return ssl === false ? 'off' : 'on';
}

/** Whether the URL, or else PGSSLMODE, says whether to use TLS (pg's default, when neither does, is clear text). */
function tlsDecided(url: string, env: Record<string, string | undefined>): boolean {
  const fromUrl = urlTls(url);
  if (fromUrl !== undefined) return fromUrl !== 'unset';
  return ENV_MODES.has(env.PGSSLMODE ?? '');
}

/** This machine: a Unix socket's folder (`?host=/var/run/postgresql`, PGHOST=/tmp), or a loopback name or address. */
function local(host: string): boolean {
  return host.startsWith('/') || isLoopbackHost(host.toLowerCase());
}

/**
 * Throws DbTargetError (exit 2) when `target` would connect over TCP to another machine without TLS because nothing
 * chose: pg, given no sslmode, sends the password and the recalls in clear text. Names host and database only.
 */
export function refusePlainText(target: PgTarget, env: Record<string, string | undefined>): void {
  if (local(target.host) || tlsDecided(target.url, env)) return;
  // An empty `ssl=` keeps pg from reading PGSSLMODE: said so, rather than that PGSSLMODE is not set.
  const why =
    urlTls(target.url) === 'unset'
      ? 'the --db URL has an empty ssl=, which chooses no TLS and keeps PGSSLMODE from being read'
      : 'the --db URL sets no sslmode (nor does PGSSLMODE)';
  throw new DbTargetError(
    `the connection to database ${target.database} on ${target.host} would not be encrypted: ${why}`,
    PLAIN_TEXT_HINT,
  );
}
