// Where a run reports (--monitor, --metrics-file: resolved with the run's settings by the settings table) and what its pings mask.
import type { Context } from '../context.js';
import type { RunReporting, Settings } from '../settings.js';
import { monitorTokens, runSecrets, smtpSecrets } from '../config/run-secrets.js';
import { maskSecrets } from '../../api/errors-mask.js';
import { fromSandbox } from '../archive/sandbox-origin.js';

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
  /** Values never to show in a ping body: the key, the webhook URL, the SMTP login, passwords in a --db URL. */
  secrets: string[];
  profileDb: string | undefined;
  /** The run's recalls come from a sandbox (--sandbox, a dr_test_ key): its default archive is the sandbox's. */
  sandbox: boolean;
  /** The profile's sources, resolved with the run's settings: feed and sync ask for them without --sources. */
  profileSources: string[] | undefined;
}

/** Whether a run reports anywhere: else ops-action loads nothing of the monitor or the metrics. */
export function reportsAnywhere(reporting: Pick<RunReporting, 'monitor' | 'metricsFile'>): boolean {
  return Boolean(reporting.monitor || reporting.metricsFile);
}

/**
 * The ops settings of a run, from its settings (the session's; only where it reports, when the rest was refused):
 * the monitor, the metrics file, the profile's archive, and the secrets a ping body masks.
 */
export function opsSettings(
  settings: RunReporting & Partial<Pick<Settings, 'apiKey' | 'webhook' | 'smtpUrl' | 'sandbox' | 'profileSources'>>,
  flags: OpsFlags,
  ctx: Pick<Context, 'env' | 'argv' | 'secrets'>,
): OpsSettings {
  const { monitor } = settings;
  const flagged = [typeof flags.webhook === 'string' ? flags.webhook : undefined, ...smtpSecrets(flags.smtpUrl)];
  const secrets = [
    settings.apiKey,
    monitor,
    ...monitorTokens(monitor),
    ...flagged,
    settings.webhook,
    ...smtpSecrets(settings.smtpUrl),
    settings.profileDb,
    // The environment's, the command line's and those already noted: the one list error reports mask with.
    ...runSecrets(ctx),
  ].filter((v): v is string => typeof v === 'string' && v.length >= 4);
  return {
    monitor,
    metricsFile: settings.metricsFile,
    secrets: [...new Set(secrets)],
    profileDb: settings.profileDb,
    sandbox: fromSandbox({ sandbox: settings.sandbox ?? false, apiKey: settings.apiKey }),
    profileSources: settings.profileSources,
  };
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
