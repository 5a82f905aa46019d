// The session a job runs in: settings, terminal and status line at once; what its command declared it uses, opened before it.
import type { DbTarget } from '../archive/db-target.js';
import type { KeptFile } from './files/kept-files.js';
import type { ArchiveStore } from '../archive/store.js';
import { lazyApiSession, statusReporter, type ApiSession } from './api-session.js';
import { archiveTarget, type DbChoice } from './archive/archive-file.js';
import type { ArchiveUse } from './archive/run-archive.js';
import { fromSandbox } from './archive/sandbox-origin.js';
import { ConfigError } from './config/config-errors.js';
import { readProfile } from './config/open-store.js';
import { UsageError } from './cli-errors.js';
import { dbSecrets, noteMonitor, noteSecrets, smtpSecrets } from './config/run-secrets.js';
import type { Context } from './context.js';
import type { OutputSpec, RecordOutput } from './files/record-output.js';
import type { RunLock } from './files/run-lock.js';
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
export type { ArchiveUse } from './archive/run-archive.js';

/**
 * What a command's run uses, declared with its plan: the session opens them before the job, in this order (the format
 * chosen, the client started, then the archive: a bad -f costs nothing, and a run without its key creates no
 * archive), and closes them when the run ends, however it ends.
 */
export interface Uses {
  /** The output, its format chosen (and -o checked) first; the job gets it from `output()`. */
  output?: OutputSpec;
  /** The API client: a run that needs the key and has none is refused before its archive is opened or created. */
  api?: { needsKey: boolean };
  /** The archive, open from before the job until the run ends: `session.store`. */
  archive?: ArchiveUse | undefined;
  /** The files the run reads or keeps besides the archive (a catalogue, a state): -o and --metrics-file never name one. */
  kept?: readonly KeptFile[];
}

/** The store a declaration promises: one when an archive is declared; maybe none when it is optional. */
type StoreOf<A> = A extends { optional: true }
  ? ArchiveStore | undefined
  : A extends ArchiveUse
    ? ArchiveStore
    : undefined;

/** The session a job gets for what `U` declares: `store` typed as the declaration promises it. */
export type SessionOf<U extends Uses> = Session & {
  readonly store: U extends { archive: infer A }
    ? StoreOf<A>
    : U extends { archive?: infer A }
      ? StoreOf<A> | undefined
      : undefined;
};

/** A session whose run declared an archive (not optional): its store is open. */
export type ArchiveSession = SessionOf<{ archive: ArchiveUse & { optional?: false } }>;

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
  /** The archive the run declared (`Uses.archive`), open until `close()`; undefined when it declared none. */
  readonly store: ArchiveStore | undefined;
  /**
   * The run's output: its format chosen now (a bad -f or -o is refused before any request), its target
   * opened when written, through `<file>.partial` for a file. The one the run declared (`Uses.output`), when it did.
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
  // The profile's secrets first: refusing another value (a --base-url that is no URL) may quote one of them.
  const stored = (key: string) => (typeof profileValues[key] === 'string' ? (profileValues[key] as string) : undefined);
  noteSecrets(ctx, [
    stored('api-key'),
    stored('webhook'),
    ...smtpSecrets(stored('smtp-url')),
    ...dbSecrets(stored('db')),
  ]);
  noteMonitor(ctx, stored('monitor'));
  const settings = resolveSettings(globals, ctx.env, profileValues);
  // The archive's password from --db or RECALL_FEED_DB is the run's secret wherever it is gathered (runSecrets).
  noteSecrets(ctx, [
    settings.apiKey,
    settings.webhook,
    ...smtpSecrets(settings.smtpUrl),
    ...dbSecrets(settings.profileDb),
  ]);
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
  const client = lazyApiSession(settings, terminal, status, ctx);
  let declaredOutput: Promise<RecordOutput> | undefined;
  let outputLock: RunLock | undefined;
  let store: ArchiveStore | undefined;
  const session: Session = {
    ctx,
    settings,
    terminal,
    status,
    api: client.api,
    archive: (choice) => archiveTarget(choice, ctx.env, settings.profileDb, fromSandbox(settings)),
    get store() {
      return store;
    },
    async output(spec?: OutputSpec): Promise<RecordOutput> {
      if (declaredOutput) {
        // The run declared its output: the job takes that one, never another.
        if (spec !== undefined)
          throw new TypeError('session.output() was declared; the job asks for it without a spec');
        return declaredOutput;
      }
      const { recordOutput } = await import('./files/record-output.js');
      return recordOutput(settings, terminal, ctx, spec);
    },
    async close() {
      status.stop();
      // The archive before the client: what the job wrote is committed; the client may be a sandbox the sync read.
      const opened = store;
      store = undefined;
      await opened?.close();
      await outputLock?.release();
      await client.close();
    },
  };
  openers.set(session, async (uses) => {
    const kept = [...(uses.kept ?? [])];
    const target = uses.archive ? session.archive(uses.archive.db) : undefined;
    if (target?.kind === 'sqlite') kept.push({ path: target.file, what: 'archive' });
    // The metrics file only where the run writes it (feed, sync, match and digest report through `ctx.ops`).
    const metricsFile = ctx.ops === undefined ? undefined : settings.metricsFile;
    (await import('./files/kept-files.js')).refuseOverwrites({ output: settings.output, metricsFile }, kept);
    if (uses.output) {
      const { recordOutput } = await import('./files/record-output.js');
      declaredOutput = recordOutput(settings, terminal, ctx, uses.output);
      await declaredOutput;
      // Two runs of the same -o (a cron job that overran) take turns, as feed's do: both wrote one partial file.
      const file = (await import('./files/output-target.js')).outputFile(settings);
      if (file !== undefined) {
        const { acquireRunLock, runLockOptions, waitSaidBy, DEFAULT_LOCK_WAIT_MS } = await import(
          './files/run-lock.js'
        );
        // A wait sat out is said where someone watches, never to cron (waitSaidBy), as feed's is.
        outputLock = await acquireRunLock(
          [file],
          runLockOptions(ctx, (line) => status.warn(line), DEFAULT_LOCK_WAIT_MS, undefined, waitSaidBy(status)),
        );
      }
    }
    if (uses.api) await session.api(uses.api);
    if (uses.archive) {
      const { openUsedArchive } = await import('./archive/run-archive.js');
      store = await openUsedArchive(uses.archive, session.archive(uses.archive.db), session);
    }
  });
  return session;
}

/** The archive a run declared, for a job whose plan decides whether it has one; none is a bug in its command. */
export function declaredStore(session: Session): ArchiveStore {
  if (session.store === undefined) throw new TypeError('the job reads an archive its command did not declare');
  return session.store;
}

/** How each session opens what its run declared: kept off the `Session` a job sees, so no job opens anything. */
const openers = new WeakMap<Session, (uses: Uses) => Promise<void>>();

/**
 * Opens what `uses` declares in `session` (its client, its output, its archive), then runs `job` with them ready;
 * they close with the session (`runIn`), however the job ends.
 */
export async function using<U extends Uses, T>(
  session: Session,
  uses: U,
  job: (session: SessionOf<U>) => Promise<T>,
): Promise<T> {
  const open = openers.get(session);
  if (!open) throw new TypeError('using() needs a session made by sessionWith()');
  await open(uses);
  // What `uses` declared is now open, as SessionOf<U> says.
  return job(session as SessionOf<U>);
}

/** Runs `job` in `session`, closed however the job ends. */
export async function runIn<T>(session: Session, job: (session: Session) => Promise<T>): Promise<T> {
  try {
    return await job(session);
  } finally {
    await session.close();
  }
}

/** Runs `job` in a session made from the global flags, with what `uses` declares open; closed however the job ends. */
export async function withSession<U extends Uses, T>(
  globals: GlobalFlags,
  ctx: Context,
  uses: U,
  job: (session: SessionOf<U>) => Promise<T>,
): Promise<T> {
  return runIn(await createSession(globals, ctx), (session) => using(session, uses, job));
}
