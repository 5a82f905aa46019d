// The sources the key may use, asked of the API once for all of a run's answers and never waited on long; why, when unknown.
import { setTimeout as delay } from 'node:timers/promises';
import { runSecrets } from '../runtime/config/run-secrets.js';
import { describeError } from '../runtime/error-reports.js';
import type { Session } from '../runtime/session.js';
import type { KeySources } from './freshness.js';

/** How long a failure to learn the key's sources stands before it is asked again. */
const RETRY_SOURCES_MS = 10 * 60_000;
/** How long an answer waits for the sources the key may use, asked of the API once (docs/mcp.md, Freshness). */
export const SOURCES_WAIT_MS = 5_000;

/**
 * `promise`'s value if it settles within `ms`, else undefined (the promise goes on, for the answers after). `hold`: the
 * wait keeps the process alive.
 */
export async function firstOf<T>(promise: Promise<T | undefined>, ms: number, hold = false): Promise<T | undefined> {
  const stop = new AbortController();
  const late = delay(ms, undefined, { signal: stop.signal, ref: hold }).catch(() => undefined);
  try {
    return await Promise.race([promise, late]);
  } finally {
    stop.abort();
  }
}

/**
 * What /v1/recalls/sources lists for the key, or why not: the CLI's message for the failure (the key refused, the API
 * unreachable), the run's secrets masked, also said on stderr for whoever runs the server.
 */
async function askSources(session: Session): Promise<KeySources> {
  const { settings, status, ctx } = session;
  const unknown = (why: string): KeySources => {
    status.warn(`the sources this key may use were not checked: ${why}, so monitoring cannot be called complete`);
    return { ids: undefined, why };
  };
  if (!settings.apiKey && !settings.sandbox) return unknown('no API key is set');
  try {
    const { client } = await session.api({ needsKey: true });
    return { ids: (await client.sources()).data_sources.map((s) => s.id) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const secrets = [...runSecrets(ctx), ...(settings.apiKey ? [settings.apiKey] : [])];
    return unknown(describeError(err, secrets).message);
  }
}

/**
 * What asks the API for the sources the key may use, for the answers of `session`'s servers: asked when the first
 * answer needs it, then kept; unknown (no key, the key refused, the API down) is asked again after a while, so that a
 * server started offline stops saying "incomplete" once it can. An answer waits for it at most `waitMs`.
 */
export function sourcesOf(session: Session, waitMs = SOURCES_WAIT_MS): () => Promise<KeySources> {
  const { ctx } = session;
  let sources: { at: number; list: Promise<KeySources>; unknown?: true } | undefined;
  return async () => {
    if (sources === undefined || (sources.unknown && ctx.now() - sources.at > RETRY_SOURCES_MS)) {
      const asked: NonNullable<typeof sources> = { at: ctx.now(), list: askSources(session) };
      asked.list.then(
        (known) => {
          if (known.ids === undefined) asked.unknown = true;
        },
        () => {},
      );
      sources = asked;
    }
    // An answer reads the archive, offline: it never waits long on the API (one that takes connections and never
    // answers held every tool for minutes). Until the sources are known, answers say they were not checked.
    const known = await firstOf(
      sources.list.catch(() => undefined),
      waitMs,
    );
    return known ?? { ids: undefined, why: `the API has not answered within ${waitMs / 1000} s` };
  };
}
