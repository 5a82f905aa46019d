// The sources monitoring had to cover (--sources, else what the API lists for the key), shared by `digest` and `report`.
import { UnauthorizedDataSourcesError } from '../../api/api-errors.js';
import type { Session } from '../session.js';

/**
 * The sources monitoring had to cover: --sources when given (asked of the feed once, as `feed` asks, so an id
 * the key may not use is refused with feed's message and exit code), else what /v1/recalls/sources lists for
 * the key. Undefined when that cannot be asked (no key, the API unreachable): the digest (or report) then says
 * so, and cannot be complete. The run's client asks (started here, closed with the session).
 */
export async function allowedSources(sources: string[] | undefined, session: Session): Promise<string[] | undefined> {
  const { settings, status, ctx } = session;
  if (!settings.apiKey && !settings.sandbox) {
    status.warn(
      sources === undefined
        ? 'no API key: the sources this key may use were not checked, so monitoring cannot be called complete'
        : 'no API key: --sources was not checked against the sources this key may use, so monitoring cannot be called complete',
    );
    return undefined;
  }
  try {
    const { client } = await session.api({ needsKey: true });
    if (sources === undefined) return (await client.sources()).data_sources.map((s) => s.id);
    const pages = client.feedPages({ dataSources: sources, hoursAgo: 1, limit: 1 });
    try {
      await pages.next();
    } finally {
      await pages.return(undefined);
    }
    return sources;
  } catch (err) {
    if (ctx.signal.aborted || err instanceof UnauthorizedDataSourcesError) throw err;
    status.warn(`the sources this key may use were not checked: ${(err as Error).message}`);
    return undefined;
  }
}
