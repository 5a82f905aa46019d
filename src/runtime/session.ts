// Lazily builds what an API command needs: settings from flags, environment and profile; the client; the sandbox.
import v8 from 'node:v8';
import type { RunLock } from './files/run-lock.js';
import type { RecallFeedClient } from '../api/client.js';
import type { ProxySettings } from '../api/proxy.js';
import { MissingApiKeyError } from './cli-errors.js';
import type { Context } from './context.js';
import { readProfile } from './config/open-store.js';
import { dbSecret, noteSecrets, runSecrets } from './config/run-secrets.js';
import { maskSecrets } from '../api/errors-mask.js';
import { detectTerminal, type Terminal } from './terminal/terminal.js';
import { StatusReporter } from './terminal/status.js';
import {
  resolveProfileName,
  resolveSettings,
  type GlobalFlags,
  type ProfileValues,
  type Settings,
} from './settings.js';

export interface Session {
  settings: Settings;
  terminal: Terminal;
  status: StatusReporter;
  client: RecallFeedClient;
  /**
   * The run lock on the output and state files, when the run holds one: checked right before anything is
   * put in place, so a run whose lock was taken over (it stalled too long) commits nothing.
   */
  lock?: Pick<RunLock, 'check'>;
  close(): Promise<void>;
}

/** The profile's stored values; none when running against the sandbox (it needs no config). */
async function loadProfile(globals: GlobalFlags, ctx: Context): Promise<ProfileValues> {
  if (globals.sandbox) return {};
  return readProfile(ctx, resolveProfileName(globals, ctx.env));
}

/** Flags, environment and profile resolved into settings: what a command plans with before it starts anything. */
export async function loadSettings(globals: GlobalFlags, ctx: Context): Promise<Settings> {
  const settings = resolveSettings(globals, ctx.env, await loadProfile(globals, ctx));
  noteSecrets(ctx, [settings.apiKey, settings.webhook, settings.smtpUrl, dbSecret(settings.profileDb)]);
  return settings;
}

export interface SessionOptions {
  /** Whether the command needs an API key (all but health). */
  needsKey: boolean;
  /** Settings the command already loaded to plan its run; loaded here otherwise. */
  settings?: Settings;
  /** The terminal the command already detected to plan its run; detected here otherwise. */
  terminal?: Terminal;
}

/** The proxy settings of the environment (lower case first, as undici's EnvHttpProxyAgent reads them); loopback never goes through one. */
export function proxyFromEnv(env: Context['env']): ProxySettings {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
}

export async function openSession(globals: GlobalFlags, ctx: Context, opts: SessionOptions): Promise<Session> {
  const settings = opts.settings ?? (await loadSettings(globals, ctx));
  const terminal = opts.terminal ?? detectTerminal(ctx, globals.color);
  const spinner = terminal.animate;
  const status = new StatusReporter(ctx.stderr, {
    spinner,
    quiet: settings.quiet,
    verbose: settings.verbose,
    now: ctx.now,
    mask: (text) => maskSecrets(text, runSecrets(ctx)),
  });
  let closeSandbox: (() => Promise<void>) | undefined;
  if (settings.sandbox) {
    const { startSandbox, DEMO_KEYS } = await import('../sandbox/index.js');
    // On the calendar: an id is the same recall in every run (the archive and cases rely on it).
    const sandbox = await startSandbox({ port: 0, calendar: true, clock: ctx.now });
    closeSandbox = () => sandbox.close();
    settings.baseUrl = sandbox.url;
    settings.apiKey = DEMO_KEYS.all.key;
    settings.apiKeySource = undefined;
  } else if (opts.needsKey && !settings.apiKey) {
    throw new MissingApiKeyError(`no API key for profile '${settings.profile}'`);
  }
  const { RecallFeedClient } = await import('../api/client.js');
  // A short run spends more on V8 optimising undici's WebAssembly HTTP parser than on parsing: baseline code
  // only. A process-wide flag, so the CLI sets it, never the library.
  v8.setFlagsFromString('--liftoff-only');
  const client = new RecallFeedClient({
    apiKey: opts.needsKey ? settings.apiKey : undefined,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    maxWaitMs: settings.maxWaitMs,
    maxResponseBytes: settings.maxResponseBytes,
    pacing: settings.pacing,
    allowInsecureHttp: settings.allowInsecureHttp,
    proxy: proxyFromEnv(ctx.env),
    now: ctx.now,
    sleep: ctx.sleep,
    signal: ctx.signal,
    onEvent: (e) => status.event(e),
  });
  ctx.ops?.client(client);
  return {
    settings,
    terminal,
    status,
    client,
    close: async () => {
      status.stop();
      await client.close();
      await closeSandbox?.();
    },
  };
}
