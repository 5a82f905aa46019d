// The secrets one run holds (API key, webhook URL, the SMTP login, a database URL's password, PGPASSWORD), gathered so that server text can be masked.
import { SECRET_ENV_NAMES as SECRET_ENV } from '../../actions/child-env.js';
import { percentDecode } from '../../api/percent-decode.js';
import type { Context } from '../context.js';

/** The flags whose value is a secret (a monitor's ping URL carries its check's token). */
const SECRET_FLAGS = new Set(['--api-key', '--webhook', '--monitor']);

/** The flag and the variable that name the SMTP server: only the login in their value is a secret (smtpSecrets). */
const SMTP_FLAG = '--smtp-url';
const SMTP_ENV = 'RECALL_FEED_SMTP_URL';

/** The flag and the variable that name an archive: only the password in their value is a secret (dbSecrets). */
const DB_FLAG = '--db';
const DB_ENV = 'RECALL_FEED_DB';

/**
 * The secret in an archive choice: a database URL's password in every form an error may quote it (pg decodes the
 * URL before it sends it): the user info's password as written and decoded, and a `?password=` parameter's, as
 * written and decoded. Never the rest: a file path or a host is no secret, and the messages naming them stay readable.
 * Nor a password that is the URL's user, database or host name (postgres:postgres@…/postgres): messages print those
 * names anyway, and masking them would garble every line that does.
 */
export function dbSecrets(db: string | undefined): string[] {
  if (!db || !URL.canParse(db.trim())) return [];
  const url = new URL(db.trim());
  const found = [url.password, percentDecode(url.password)];
  for (const [, raw] of url.search.matchAll(/[?&]password=([^&#]*)/gi)) found.push(raw!, percentDecode(raw!));
  for (const [name, value] of url.searchParams) if (name.toLowerCase() === 'password') found.push(value);
  const names = new Set([url.username, url.hostname, url.pathname.slice(1)].map(percentDecode));
  for (const [name, value] of url.searchParams) if (name === 'user' || name === 'host') names.add(value);
  names.add(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  return [...new Set(found)].filter((s) => s !== '' && !names.has(s) && !names.has(percentDecode(s)));
}

/**
 * The secrets in an SMTP URL: its user name and password, as written and decoded (nodemailer and the server may
 * quote either). Never the rest: messages name the server (`smtp://host:587`). A value that is no smtp(s) URL is masked
 * whole, since what in it is a password cannot be told; nor a login that is the host's name, which messages print anyway.
 */
export function smtpSecrets(smtpUrl: string | undefined): string[] {
  if (!smtpUrl?.trim()) return [];
  const url = URL.canParse(smtpUrl.trim()) ? new URL(smtpUrl.trim()) : undefined;
  if (url?.protocol !== 'smtp:' && url?.protocol !== 'smtps:') return [smtpUrl];
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A login that is the host or one of its labels (`resend` of smtp.resend.com) would mask the server's own name;
  // a password is masked whatever it is.
  const labels = new Set([url.hostname, host, ...host.split('.')]);
  const logins = [url.username, percentDecode(url.username)].filter((s) => !labels.has(s));
  return [...new Set([...logins, url.password, percentDecode(url.password)])].filter((s) => s !== '');
}

/** Records secrets a command learnt (from the profile, say) on the run's context, for the error report. */
export function noteSecrets(ctx: Context, values: readonly (string | undefined)[]): void {
  for (const v of values) if (v) ctx.secrets?.add(v);
}

/** Every secret the run may hold: the environment's, the command line's, and those noted on the context. */
export function runSecrets(ctx: Pick<Context, 'env' | 'argv' | 'secrets'>): string[] {
  const found = new Set<string>(ctx.secrets ?? []);
  const add = (values: readonly (string | undefined)[]) => {
    for (const v of values) if (v) found.add(v);
  };
  // The SMTP URL is kept from child processes whole (child-env.ts), but only its login is a secret to mask.
  add(SECRET_ENV.filter((name) => name !== SMTP_ENV).map((name) => ctx.env[name]));
  add(smtpSecrets(ctx.env[SMTP_ENV]));
  // The archive's password, wherever the run's choice may come from: --db, RECALL_FEED_DB (the profile's: session.ts).
  add(dbSecrets(ctx.env[DB_ENV]));
  const argv = ctx.argv ?? [];
  argv.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    const [flag, value] =
      eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, argv[i + 1]?.startsWith('-') ? undefined : argv[i + 1]];
    if (SECRET_FLAGS.has(flag)) add([value]);
    else if (flag === DB_FLAG) add(dbSecrets(value));
    else if (flag === SMTP_FLAG) add(smtpSecrets(value));
  });
  return [...found].filter((s) => s.trim() !== '');
}

/** The path segments of a ping URL long enough to be a token (short ones are words such as `ping`). */
export function monitorTokens(monitor: string | undefined): string[] {
  if (!monitor || !URL.canParse(monitor)) return [];
  return new URL(monitor).pathname.split('/').filter((segment) => segment.length >= 16);
}

/**
 * A monitor's ping URL and its token alone (a long path segment: hc-ping.com/<uuid>, /<ping-key>/<slug>), which
 * a server may echo bare: noted with the run's secrets, for the error report and the server text it masks.
 */
export function noteMonitor(ctx: Context, monitor: string | undefined): void {
  noteSecrets(ctx, [monitor, ...monitorTokens(monitor)]);
}
