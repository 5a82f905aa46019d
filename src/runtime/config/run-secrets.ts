// The secrets one run holds (API key, webhook URL, SMTP URL, database URL, PGPASSWORD), gathered so that server text can be masked.
import { SECRET_ENV_NAMES as SECRET_ENV } from '../../actions/child-env.js';
import type { Context } from '../context.js';

/** The flags whose value is a secret (a monitor's ping URL carries its check's token). */
const SECRET_FLAGS = new Set(['--api-key', '--webhook', '--smtp-url', '--monitor']);

/**
 * The secret in an archive choice: a database URL's password, never the rest (a file path or a host is
 * no secret, and the messages that name them must stay readable).
 */
export function dbSecret(db: string | undefined): string | undefined {
  if (!db || !URL.canParse(db.trim())) return undefined;
  const password = new URL(db.trim()).password;
  return password === '' ? undefined : password;
}

/** Records secrets a command learnt (from the profile, say) on the run's context, for the error report. */
export function noteSecrets(ctx: Context, values: readonly (string | undefined)[]): void {
  for (const v of values) if (v) ctx.secrets?.add(v);
}

/** Every secret the run may hold: the environment's, the command line's, and those noted on the context. */
export function runSecrets(ctx: Pick<Context, 'env' | 'argv' | 'secrets'>): string[] {
  const found = new Set<string>(ctx.secrets ?? []);
  for (const name of SECRET_ENV) {
    const v = ctx.env[name];
    if (v) found.add(v);
  }
  const argv = ctx.argv ?? [];
  argv.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    if (eq > 0 && SECRET_FLAGS.has(arg.slice(0, eq))) found.add(arg.slice(eq + 1));
    else if (SECRET_FLAGS.has(arg) && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-'))
      found.add(argv[i + 1]!);
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
