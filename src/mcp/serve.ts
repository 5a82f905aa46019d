// `recall-feed mcp`: serves over stdio until the client closes it, or over Streamable HTTP until the run is stopped.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from '../api/loopback.js';
import { lazyApiSession } from '../runtime/api-session.js';
import { UsageError } from '../runtime/cli-errors.js';
import { readProfile } from '../runtime/config/open-store.js';
import { parseMcpToken } from '../runtime/mcp-token-setting.js';
import type { Session } from '../runtime/session.js';
import { settingSource } from '../runtime/settings.js';
import { firstOf, SOURCES_WAIT_MS, sourcesOf } from './key-sources.js';
import type { McpPlan } from './plan.js';
import { buildServer } from './server.js';
import { AnsweringStdioTransport } from './stdio-transport.js';

/** How long answers still being made when the client closes stdin may take to be written, before the server closes. */
const HANG_UP_WAIT_MS = 2 * SOURCES_WAIT_MS;

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

/**
 * `session` with a client of its own, whose requests (and retries) end when `signal` aborts: the run's client follows
 * only the run's signal, and went on retrying a slow API for minutes after a stdio client had hung up.
 */
function endingWith(session: Session, signal: AbortSignal): Session {
  const ctx = { ...session.ctx, signal };
  return { ...session, ctx, ...lazyApiSession(session.settings, session.terminal, session.status, ctx) };
}

/**
 * The requests received on `transport` not yet answered (nor cancelled by the client): `settled()` resolves when none
 * is left. Set before the server connects: the SDK's own handling of each message comes after.
 */
function unanswered(transport: AnsweringStdioTransport): { settled(): Promise<void> } {
  const open = new Set<RequestId>();
  let wake = () => {};
  const done = (id: unknown) => {
    open.delete(id as RequestId);
    if (open.size === 0) wake();
  };
  transport.onmessage = (message) => {
    if (isJSONRPCRequest(message)) open.add(message.id);
    else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled')
      done(message.params?.requestId);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) done(message.id);
  };
  return {
    settled: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            wake = resolve;
          }),
  };
}

/**
 * Serves over stdio until the client closes stdin (the answers still being made written first, within
 * HANG_UP_WAIT_MS), the connection fails or the run is stopped; then whatever still asks the API is aborted.
 */
async function serveStdio(plan: McpPlan, session: Session): Promise<void> {
  const { ctx, status } = session;
  // Once a run: AbortSignal.any leaves one entry on the run's signal, not one a request.
  const ending = new AbortController();
  const own = endingWith(session, AbortSignal.any([ctx.signal, ending.signal]));
  const server = buildServer(own, plan, sourcesOf(own));
  const stdinClosed = new Promise<void>((resolve) => {
    ctx.stdin.once('end', resolve);
    ctx.stdin.once('close', resolve);
  });
  const transport = new AnsweringStdioTransport(ctx.stdin, ctx.stdout);
  const requests = unanswered(transport);
  // A line that is no JSON-RPC is answered with JSON-RPC's error, said in one line, and skipped (the SDK goes on). A
  // message it cannot take (over 10 MiB) closes the connection: then the run fails (exit 1), rather than ending as if
  // the client had hung up.
  let lastError: Error | undefined;
  const gone = new Promise<'gone'>((resolve) => {
    transport.onerror = (err) => {
      lastError = err;
      status.warn(`mcp: ${err.message}`);
    };
    transport.onclose = () => resolve('gone');
  });
  let ended: 'hung up' | 'gone' | undefined;
  try {
    await server.connect(transport);
    ended = await Promise.race([
      stdinClosed.then(() => 'hung up' as const),
      gone,
      stopped(ctx.signal).then(() => undefined),
    ]);
    // A client that wrote its requests and closed stdin (a script's pipe) still gets their answers.
    if (ended === 'hung up')
      await firstOf(Promise.race([requests.settled(), gone, stopped(ctx.signal)]), HANG_UP_WAIT_MS, true);
    await server.close();
  } finally {
    ending.abort();
    await own.close();
  }
  if (ended === 'gone' && !ctx.signal.aborted)
    throw new Error(`the MCP connection on stdin failed: ${lastError?.message ?? 'closed'}`);
}

export async function serveMcp(plan: McpPlan, session: Session): Promise<void> {
  const { ctx, status } = session;
  if (plan.catalog) await checkCatalogue(plan.catalog);
  if (plan.http === undefined) return serveStdio(plan, session);
  const allowed = sourcesOf(session);
  const make = () => buildServer(session, plan, allowed);
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
