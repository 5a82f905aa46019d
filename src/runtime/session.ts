// The session a job runs in: settings, terminal and status line at once; the client, the archive and the output when asked.
import type { DbTarget } from '../archive/db-target.js';
import { openApiSession, statusReporter, type ApiSession } from './api-session.js';
import { archiveTarget, type DbChoice } from './archive/archive-file.js';
import { fromSandbox } from './archive/sandbox-origin.js';
import { ConfigError } from './config/config-errors.js';
import { readProfile } from './config/open-store.js';
import { UsageError } from './cli-errors.js';
import { dbSecret, noteMonitor, noteSecrets } from './config/run-secrets.js';
import type { Context } from './context.js';
import type { OutputSpec, RecordOutput } from './files/record-output.js';
import {
  resolveProfileName,
  resolveSettings,
  runReporting,
  type RunReporting,
  type GlobalFlags,
  type ProfileValues,
  type Settings,
} from './settings.js';
import type { StatusReporter } from './terminal/status.js';
import { detectTerminal, type Terminal } from './terminal/terminal.js';

export type { ApiSession } from './api-session.js';

/**
 * What a job is given with its plan. Cheap parts are ready (the settings resolved from flags, environment
 * and profile; the terminal; the status line on stderr); the rest starts on first use and stops with
 * `close()`: the API client (and --sandbox's sandbox), the record output.
 */
export interface Session {
  readonly ctx: Context;
  readonly settings: Settings;
  readonly terminal: Terminal;
  readonly status: StatusReporter;
  /** The client, started once; a run that needs a key and has none is refused here (exit 3). */
  api(opts?: { needsKey?: boolean }): Promise<ApiSession>;
  /** The archive `choice` names (--db, RECALL_FEED_DB, the profile's, the default or the sandbox's); not opened. */
  archive(choice: DbChoice): DbTarget;
  /**
   * The run's output: its format chosen now (a bad -f or -o is refused before any request), its target
   * opened when written, through `<file>.partial` for a file.
   */
  output(spec?: OutputSpec): Promise<RecordOutput>;
  close(): Promise<void>;
}

/** The profile's stored values; none when running against the sandbox (it needs no config). */
async function loadProfile(globals: GlobalFlags, ctx: Context): Promise<ProfileValues> {
  if (globals.sandbox) return {};
  return readProfile(ctx, resolveProfileName(globals, ctx.env));
}

/** Flags, environment and profile resolved into settings; the secrets among them noted, so no message shows them. */
export async function loadSettings(globals: GlobalFlags, ctx: Context): Promise<Settings> {
  return settingsOf(globals, ctx, await loadProfile(globals, ctx));
}

function settingsOf(globals: GlobalFlags, ctx: Context, profileValues: ProfileValues): Settings {
  const settings = resolveSettings(globals, ctx.env, profileValues);
  noteSecrets(ctx, [settings.apiKey, settings.webhook, settings.smtpUrl, dbSecret(settings.profileDb)]);
  noteMonitor(ctx, settings.monitor);
  return settings;
}

/**
 * For doctor, whose config check reports a config file it cannot read (or a value in the profile refused) and goes
 * on with the other checks: then the settings leave the profile out, and `profileProblem` says why. A refusal that
 * remains without the profile comes from a flag or the environment: the run's own error, thrown.
 */
export async function loadSettingsDespiteProfile(
  globals: GlobalFlags,
  ctx: Context,
): Promise<{ settings: Settings; profileProblem?: Error }> {
  try {
    return { settings: await loadSettings(globals, ctx) };
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof UsageError)) throw err;
    return { settings: settingsOf(globals, ctx, {}), profileProblem: err };
  }
}

/**
 * Where a run reports (the monitor, the metrics file) when its settings were refused: from the same profile read
 * (kept on the context) and the same table, so that the refusal is reported there too.
 */
export async function loadReporting(globals: GlobalFlags, ctx: Context): Promise<RunReporting> {
  const reporting = runReporting(globals as Record<string, unknown>, ctx.env, await loadProfile(globals, ctx));
  noteMonitor(ctx, reporting.monitor);
  return reporting;
}

/** The session of one run; the shell makes it from the global flags, and closes it when the job ends. */
export async function createSession(globals: GlobalFlags, ctx: Context): Promise<Session> {
  return sessionWith(await loadSettings(globals, ctx), globals, ctx);
}

/**
 * The session of settings already resolved (`loadSettings`): for a run that must know where it reports before its
 * session starts (ops-action.ts), made with the context that hears the run.
 */
export function sessionWith(settings: Settings, globals: GlobalFlags, ctx: Context): Session {
  const terminal = detectTerminal(ctx, globals.color);
  const status = statusReporter(settings, terminal, ctx);
  let api: { needsKey: boolean; opened: Promise<ApiSession> } | undefined;
  return {
    ctx,
    settings,
    terminal,
    status,
    api(opts = {}) {
      const needsKey = opts.needsKey ?? true;
      // One client per run: a job that asked without the key (health) and then with it is a bug, not a user's error.
      if (api && api.needsKey !== needsKey) throw new TypeError('session.api() was asked with and without the key');
      api ??= { needsKey, opened: openApiSession(settings, terminal, status, ctx, { needsKey }) };
      return api.opened;
    },
    archive: (choice) => archiveTarget(choice, ctx.env, settings.profileDb, fromSandbox(settings)),
    async output(spec) {
      const { recordOutput } = await import('./files/record-output.js');
      return recordOutput(settings, terminal, ctx, spec);
    },
    async close() {
      status.stop();
      if (api) await (await api.opened.catch(() => undefined))?.close();
    },
  };
}

/** Runs `job` in `session`, closed however the job ends. */
export async function runIn<T>(session: Session, job: (session: Session) => Promise<T>): Promise<T> {
  try {
    return await job(session);
  } finally {
    await session.close();
  }
}

/** Runs `job` in a session made from the global flags, closed however the job ends. */
export async function withSession<T>(
  globals: GlobalFlags,
  ctx: Context,
  job: (session: Session) => Promise<T>,
): Promise<T> {
  return runIn(await createSession(globals, ctx), job);
}
