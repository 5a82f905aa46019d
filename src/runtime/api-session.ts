// What a run that talks to the API holds: its settings, terminal, status line and client, and with --sandbox a sandbox of its own.
import v8 from 'node:v8';
import type { RunLock } from './files/run-lock.js';
import type { RecallFeedClient } from '../api/client.js';
import type { ProxySettings } from '../api/proxy.js';
import { MissingApiKeyError } from './cli-errors.js';
import type { Context } from './context.js';
import { runSecrets } from './config/run-secrets.js';
import { maskSecrets } from '../api/errors-mask.js';
import type { Terminal } from './terminal/terminal.js';
import { StatusReporter } from './terminal/status.js';
import type { Settings } from './settings.js';

export interface ApiSession {
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

export interface ApiSessionOptions {
  /** Whether the command needs an API key (all but health). */
  needsKey: boolean;
}

/** The proxy settings of the environment (lower case first, as undici's EnvHttpProxyAgent reads them); loopback never goes through one. */
export function proxyFromEnv(env: Context['env']): ProxySettings {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
}

/** The status line of a run: a spinner only where the terminal animates; secrets masked in all it prints. */
export function statusReporter(settings: Settings, terminal: Terminal, ctx: Context): StatusReporter {
  return new StatusReporter(ctx.stderr, {
    spinner: terminal.animate,
    quiet: settings.quiet,
    verbose: settings.verbose,
    terminal: terminal.stderrIsTTY,
    now: ctx.now,
    mask: (text) => maskSecrets(text, runSecrets(ctx)),
  });
}

/**
 * Starts the client (and, with --sandbox, a sandbox of the run's own, whose address and demo key go into
 * `settings`). Refuses a run without a key when it needs one.
 */
export async function openApiSession(
  settings: Settings,
  terminal: Terminal,
  status: StatusReporter,
  ctx: Context,
  opts: ApiSessionOptions,
): Promise<ApiSession> {
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

/**
 * The API client of one run, opened when first asked for and closed with `close()`: what a Session's `api()` is. One
 * client a run: asked with and without the key is a bug in a job, not a user's error.
 */
export function lazyApiSession(settings: Settings, terminal: Terminal, status: StatusReporter, ctx: Context) {
  let api: { needsKey: boolean; opened: Promise<ApiSession> } | undefined;
  return {
    api(opts: { needsKey?: boolean } = {}): Promise<ApiSession> {
      const needsKey = opts.needsKey ?? true;
      if (api && api.needsKey !== needsKey) throw new TypeError('session.api() was asked with and without the key');
      api ??= { needsKey, opened: openApiSession(settings, terminal, status, ctx, { needsKey }) };
      return api.opened;
    },
    async close(): Promise<void> {
      if (api) await (await api.opened.catch(() => undefined))?.close();
    },
  };
}
