// Doctor's checks against the API: reached (through the proxy, if any), the clock, the key and its sources, the quota.
import { groupDigits } from '../../output/numbers.js';
import { HttpAgent } from '../../api/http-agent.js';
import { isLoopbackHost } from '../../api/loopback.js';
import { proxyFor, proxyName } from '../../api/proxy.js';
import { send } from '../../api/transport.js';
import { endpointUrl } from '../../api/request-target.js';
import { header, serverDateMs } from '../../api/answer-headers.js';
import { nextMonthlyReset } from '../../api/retry.js';
import { parseDuration } from '../../api/duration.js';
import { BOUNDS } from '../../api/constants.js';
import type { Context } from '../../runtime/context.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { proxyFromEnv } from '../../runtime/api-session.js';
import type { Settings } from '../../runtime/settings.js';
import { type CheckResult, fail, messageOf, ok, skip, warn } from './check.js';
import { sourcesFailure } from './check-sources-failure.js';

/** A clock this far off is worth a warning (logs, cases and digests carry times); this far, a failure (TLS). */
const SKEW_WARN_MS = 30_000;
const SKEW_FAIL_MS = 300_000;

export interface Reach {
  results: CheckResult[];
  reached: boolean;
}

/** GET /health (no key) through the agent every request uses: proxy, reachability and the clock in one request. */
export async function checkReach(settings: Settings, ctx: Context): Promise<Reach> {
  const base = new URL(settings.baseUrl);
  const proxySettings = proxyFromEnv(ctx.env);
  let proxy: URL | undefined;
  try {
    // As the agent routes it: loopback never through a proxy.
    proxy = isLoopbackHost(base.hostname) ? undefined : proxyFor(base, proxySettings);
  } catch (err) {
    return { reached: false, results: [fail('proxy', messageOf(err), 'fix HTTPS_PROXY / HTTP_PROXY')] };
  }
  const via = proxy ? ` through ${proxyName(proxy)}` : '';
  const results: CheckResult[] = [];
  const agent = new HttpAgent({ proxy: proxySettings, timeoutMs: settings.timeoutMs });
  try {
    const started = ctx.now();
    const res = await send(endpointUrl(base, '/health'), {
      agent,
      headers: { accept: 'application/json', 'user-agent': 'recall-feed doctor' },
      timeoutMs: settings.timeoutMs,
      maxBytes: 1 << 20,
      signal: ctx.signal,
    });
    const ms = ctx.now() - started;
    results.push(ok('proxy', proxy ? `${proxyName(proxy)} (reached ${base.host} through it)` : 'none (direct)'));
    const api = `${base.origin} answered ${res.status}${via}${ms > 0 ? ` in ${ms} ms` : ''}`;
    results.push(res.status < 500 ? ok('api', api) : warn('api', api, 'the API reports trouble; try again later'));
    results.push(
      header(res.headers, 'x-sandbox-clock') === 'shifted'
        ? skip('clock', 'not compared: the sandbox runs on a clock of its own (--sandbox-now, --start-time)')
        : clockCheck(serverDateMs(res.headers), ctx.now()),
    );
    return { reached: true, results };
  } catch (err) {
    const hint = proxy ? 'check the proxy address, and that it allows the API' : 'check --base-url and the network';
    if (proxy) results.push(fail('proxy', `${proxyName(proxy)}: ${messageOf(err)}`, hint));
    results.push(fail('api', `${base.origin} not reached${via}: ${messageOf(err)}`, hint));
    results.push(skip('clock', 'no answer to compare with'));
    return { reached: false, results };
  } finally {
    await agent.close();
  }
}

function clockCheck(theirs: number | undefined, now: number): CheckResult {
  if (theirs === undefined) return warn('clock', 'the API sent no Date header to compare with');
  const skew = now - theirs;
  // The header counts whole seconds.
  const seconds = Math.round(skew / 1000);
  const days = Math.abs(seconds) / 86_400;
  const about =
    days >= 2 ? ` (about ${Math.round(days)} days)` : days * 24 >= 2 ? ` (about ${Math.round(days * 24)} h)` : '';
  const shown = `${skew >= 0 ? '+' : ''}${groupDigits(seconds)} s${about} against the API's Date header`;
  if (Math.abs(skew) >= SKEW_FAIL_MS) return fail('clock', shown, 'set the time (NTP: timedatectl set-ntp true)');
  if (Math.abs(skew) >= SKEW_WARN_MS) return warn('clock', shown, 'set the time (NTP: timedatectl set-ntp true)');
  return ok('clock', shown);
}

/**
 * The key accepted by one `sources` call (it counts against the quota), and the sources it may use; when the call
 * fails, what failed (check-sources-failure.ts). `quota`: whether the quota check may follow.
 */
export async function checkKey(session: ApiSession, now: number): Promise<{ results: CheckResult[]; quota: boolean }> {
  const keySource = session.settings.apiKeySource ?? 'sandbox';
  try {
    const res = await session.client.sources();
    const ids = res.data_sources.map((s) => s.id);
    return { results: [ok('key', `accepted (${keySource}); may use ${ids.length}: ${ids.join(', ')}`)], quota: true };
  } catch (err) {
    return { results: sourcesFailure(err, keySource, now), quota: false };
  }
}

/** Credits left (one feed request of one record), and what `--every` would spend until the monthly reset. */
export async function checkQuota(session: ApiSession, every: string | undefined, ctx: Context): Promise<CheckResult> {
  let page: Awaited<ReturnType<ReturnType<ApiSession['client']['feedPages']>['next']>>['value'];
  try {
    const pages = session.client.feedPages({ hoursAgo: BOUNDS.defaultHours, limit: 1 });
    page = (await pages.next()).value;
    await pages.return(undefined);
  } catch (err) {
    return fail('quota', messageOf(err));
  }
  if (!page) return warn('quota', 'the feed gave no rate_limit block');
  const rate = page.rate_limit;
  const left = rate.remaining_credits;
  const quota = rate.monthly_quota === undefined ? '' : ` of ${groupDigits(rate.monthly_quota)}`;
  let detail = `${groupDigits(left)}${quota} credits left this month`;
  if (left <= 0) return fail('quota', detail, 'ask the operator for a higher quota, or wait for the reset');
  if (every === undefined) return ok('quota', detail);
  const everyMs = parseDuration(every) as number;
  const now = ctx.now();
  const runs = Math.ceil((nextMonthlyReset(now).getTime() - now) / everyMs);
  // A full window's records at 500 a page: what each run of the job asks for.
  const perRun = Math.max(1, Math.ceil(page.pagination.total_count / BOUNDS.pageSizeMax));
  const needed = runs * perRun;
  detail += `; every ${every} until the reset: ${groupDigits(runs)} runs × ${groupDigits(perRun)} request${perRun === 1 ? '' : 's'} = ${groupDigits(needed)}`;
  if (needed > left) return warn('quota', detail, 'run less often, or ask the operator for a higher quota');
  return ok('quota', detail);
}
