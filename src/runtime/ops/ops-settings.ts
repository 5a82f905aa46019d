// Where a run reports: --monitor and --metrics-file, else RECALL_FEED_MONITOR / RECALL_FEED_METRICS_FILE, else the profile.
import type { Context } from '../context.js';
import { resolveProfileName, settingSource, type GlobalFlags, type ProfileValues } from '../settings.js';
import { readProfile } from '../config/open-store.js';
import { CONFIG_KEY_INFO } from '../config/config-keys.js';
import { noteSecrets, runSecrets } from '../config/run-secrets.js';
import { maskSecrets } from '../../api/errors-mask.js';

export interface OpsFlags {
  monitor?: string;
  metricsFile?: string;
  /** The command's own secret flags (feed, match and digest take them): masked in ping bodies too. */
  webhook?: string | boolean;
  smtpUrl?: string;
}

export interface OpsSettings {
  monitor: string | undefined;
  metricsFile: string | undefined;
  /** Values never to show in a ping body: the key, webhook and SMTP URLs, passwords in a --db URL. */
  secrets: string[];
  profileDb: string | undefined;
}

export async function resolveOpsSettings(flags: OpsFlags, globals: GlobalFlags, ctx: Context): Promise<OpsSettings> {
  const env = ctx.env;
  let profile: ProfileValues = {};
  if (!globals.sandbox) {
    profile = await readProfile(ctx, resolveProfileName(globals, env));
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const secretKeys = Object.entries(CONFIG_KEY_INFO)
    .filter(([, info]) => info.secret)
    .map(([key]) => str(profile[key]));
  // Flag > environment > profile, as the settings table says (src/runtime/settings-table.ts).
  const monitor = settingSource('monitor', { ...flags }, env, profile)?.raw;
  // The profile's monitor too, for the error report and the server text masked with the run's secrets; and its
  // token alone (a long path segment: hc-ping.com/<uuid>, /<ping-key>/<slug>), which a server may echo bare.
  noteSecrets(ctx, [monitor, ...monitorTokens(monitor)]);
  const flagged = [typeof flags.webhook === 'string' ? flags.webhook : undefined, flags.smtpUrl];
  const secrets = [
    globals.apiKey,
    monitor,
    ...monitorTokens(monitor),
    ...flagged,
    // The environment's, the command line's and those already noted: the one list error reports mask with.
    ...runSecrets(ctx),
    ...secretKeys,
  ].filter((v): v is string => typeof v === 'string' && v.length >= 4);
  return {
    monitor,
    metricsFile: settingSource('metrics-file', { ...flags }, env, profile)?.raw,
    secrets,
    profileDb: str(profile.db),
  };
}

/** The path segments of a ping URL long enough to be a token (short ones are words such as `ping`). */
export function monitorTokens(monitor: string | undefined): string[] {
  if (!monitor || !URL.canParse(monitor)) return [];
  return new URL(monitor).pathname.split('/').filter((segment) => segment.length >= 16);
}

/**
 * A ping body with every secret masked as server text is everywhere (src/api/errors-mask.ts: each form of
 * each secret, percent-encoded included), then any other `user:password@` in a URL reduced to `user:***@`
 * and a `password=` query parameter (libpq takes one in a postgres:// URL) to `password=***`.
 */
export function maskPingBody(text: string, secrets: readonly string[]): string {
  return maskSecrets(text, secrets)
    .replace(/(\/\/[^/\s:@]+):[^@\s/]+@/g, '$1:***@')
    .replace(/([?&]password=)[^&\s]+/gi, '$1***');
}
