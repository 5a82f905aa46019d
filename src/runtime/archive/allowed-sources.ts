// The sources monitoring had to cover (--sources, else what the API lists for the key), shared by `digest` and `report`.
import { UnauthorizedDataSourcesError } from '../../api/api-errors.js';
import type { LocalSession } from './local-session.js';
import type { Context } from '../context.js';
import { openSession } from '../session.js';
import type { GlobalFlags } from '../settings.js';

/**
 * The sources monitoring had to cover: --sources when given (asked of the feed once, as `feed` asks, so an id
 * the key may not use is refused with feed's message and exit code), else what /v1/recalls/sources lists for
 * the key. Undefined when that cannot be asked (no key, the API unreachable): the digest (or report) then says
 * so, and cannot be complete.
 */
export async function allowedSources(
  sources: string[] | undefined,
  globals: GlobalFlags,
  local: LocalSession,
  ctx: Context,
): Promise<string[] | undefined> {
  if (!local.settings.apiKey && !local.settings.sandbox) {
    local.status.warn(
      sources === undefined
        ? 'no API key: the sources this key may use were not checked, so monitoring cannot be called complete'
        : 'no API key: --sources was not checked against the sources this key may use, so monitoring cannot be called complete',
    );
    return undefined;
  }
  try {
    const session = await openSession(globals, ctx, { needsKey: true, settings: { ...local.settings } });
    try {
      if (sources === undefined) return (await session.client.sources()).data_sources.map((s) => s.id);
      const pages = session.client.feedPages({ dataSources: sources, hoursAgo: 1, limit: 1 });
      try {
        await pages.next();
      } finally {
        await pages.return(undefined);
      }
      return sources;
    } finally {
      await session.close();
    }
  } catch (err) {
    if (ctx.signal.aborted || err instanceof UnauthorizedDataSourcesError) throw err;
    local.status.warn(`the sources this key may use were not checked: ${(err as Error).message}`);
    return undefined;
  }
}
