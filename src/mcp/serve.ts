// `recall-feed mcp`: serves over stdio until the client closes it, or over Streamable HTTP until the run is stopped.
import { setTimeout as delay } from 'node:timers/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isLoopbackHost } from '../api/loopback.js';
import { allowedSources } from '../runtime/archive/allowed-sources.js';
import { UsageError } from '../runtime/cli-errors.js';
import { readProfile } from '../runtime/config/open-store.js';
import { parseMcpToken } from '../runtime/mcp-token-setting.js';
import type { Session } from '../runtime/session.js';
import { settingSource } from '../runtime/settings.js';
import type { McpPlan } from './plan.js';
import { buildServer } from './server.js';

/** How long a failure to learn the key's sources stands before it is asked again. */
const RETRY_SOURCES_MS = 10 * 60_000;
/** How long an answer waits for the sources the key may use, asked of the API once. */
const SOURCES_WAIT_MS = 5_000;

/** `promise`'s value if it settles within `ms`, else undefined (the promise goes on, for the answers after). */
async function firstOf<T>(promise: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const stop = new AbortController();
  const late = delay(ms, undefined, { signal: stop.signal, ref: false }).catch(() => undefined);
  try {
    return await Promise.race([promise, late]);
  } finally {
    stop.abort();
  }
}

/** The config's mcp-token (RECALL_FEED_MCP_TOKEN, else the profile's), noted as a secret: no message shows it. */
async function configuredToken(session: Session): Promise<string | undefined> {
  const { ctx } = session;
  const profile = await readProfile(ctx, session.settings.profile);
  const at = settingSource('mcp-token', {}, ctx.env, profile);
  if (at === undefined) return undefined;
  ctx.secrets?.add(at.raw.trim());
  return parseMcpToken(at.raw, at.source);
}

/** Resolves when the signal aborts (SIGINT, SIGTERM). */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * The --catalog the tools read at each call, checked once before serving as match checks it (a file, its header, its
 * --map and --key): a missing or unreadable one failed only at the assistant's first check_products.
 */
async function checkCatalogue(catalog: NonNullable<McpPlan['catalog']>): Promise<void> {
  const [{ refuseSpecialFiles }, { catalogueHead }, { asUsageError }, { keyColumn }] = await Promise.all([
    import('../runtime/files/kept-files.js'),
    import('../match/stream-matches.js'),
    import('../jobs/matching/load-catalogue.js'),
    import('../jobs/matching/open-cases.js'),
  ]);
  refuseSpecialFiles([{ path: catalog.file, what: 'catalogue' }]);
  const head = await asUsageError(() => catalogueHead(catalog.file, catalog.map));
  keyColumn(head, catalog.key);
}

export async function serveMcp(plan: McpPlan, session: Session): Promise<void> {
  const { ctx, status } = session;
  if (plan.catalog) await checkCatalogue(plan.catalog);
  // Asked (of the API, or the sandbox) when the first answer needs it, then kept; a failure (no key, the API
  // down) is asked again after a while, so that a server started offline stops saying "incomplete" once it can.
  let sources: { at: number; list: Promise<string[] | undefined>; unknown?: true } | undefined;
  const allowed = () => {
    if (sources === undefined || (sources.unknown && ctx.now() - sources.at > RETRY_SOURCES_MS)) {
      const asked: NonNullable<typeof sources> = { at: ctx.now(), list: allowedSources(undefined, session) };
      // Settled without a list (no key, the API down): asked again after a while. A refusal stays one.
      asked.list.then(
        (list) => {
          if (list === undefined) asked.unknown = true;
        },
        () => {},
      );
      sources = asked;
    }
    // An answer reads the archive, offline: it never waits long on the API (one that takes connections and never
    // answers held every tool for minutes). Until the sources are known, answers say they were not checked.
    return firstOf(sources.list, SOURCES_WAIT_MS);
  };
  const make = () => buildServer(session, plan, allowed);
  if (plan.http === undefined) {
    const server = make();
    const stdinClosed = new Promise<void>((resolve) => {
      ctx.stdin.once('end', resolve);
      ctx.stdin.once('close', resolve);
    });
    const transport = new StdioServerTransport(ctx.stdin, ctx.stdout);
    // A line that is no JSON-RPC is said and skipped (the SDK goes on). A message it cannot take (over 10 MiB)
    // closes the connection: then the run fails (exit 1), rather than ending as if the client had hung up.
    let lastError: Error | undefined;
    const gone = new Promise<'gone'>((resolve) => {
      transport.onerror = (err) => {
        lastError = err;
        status.warn(`mcp: ${err.message}`);
      };
      transport.onclose = () => resolve('gone');
    });
    await server.connect(transport);
    const ended = await Promise.race([stdinClosed.then(() => 'hung up' as const), gone, stopped(ctx.signal)]);
    await server.close();
    if (ended === 'gone' && !ctx.signal.aborted)
      throw new Error(`the MCP connection on stdin failed: ${lastError?.message ?? 'closed'}`);
    return;
  }
  const token = await configuredToken(session);
  if (!isLoopbackHost(plan.http.host) && token === undefined)
    throw new UsageError(
      `--http ${plan.http.host} reaches beyond this machine: a bearer token is required`,
      'set one, never on the command line: openssl rand -hex 32 | recall-feed config set mcp-token (or RECALL_FEED_MCP_TOKEN)',
    );
  const { startHttp } = await import('./http.js');
  const http = await startHttp(plan.http, { host: plan.http.host, token }, make, (err) =>
    status.warn(`mcp: ${err.message}`),
  );
  status.note(`serving MCP at ${http.url}${token ? ' (bearer token required)' : ''}; stop with Ctrl-C`);
  try {
    await stopped(ctx.signal);
  } finally {
    await http.close();
  }
}
