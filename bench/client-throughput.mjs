// Paging 100k records with the client library at page size 50 and 500: why the CLI defaults to 500.
import { Claims, forkSandbox, GENEROUS_LIMITS, ratio, requireBuild, table } from './lib/common.mjs';

const RECORDS = 100_000;
/** Page size 500 runs twice, around the slow page-size-50 run, so drift on a shared machine shows. */
const PLAN = [500, 50, 500];
const RUN_TIMEOUT_MS = 120_000;

const claims = new Claims('client-throughput');
let sandbox;
try {
  requireBuild();
  const { RecallFeedClient } = await import('../dist/index.js');
  const t0 = performance.now();
  // In its own process: the CPU time measured here is the client's, not the server's.
  sandbox = await forkSandbox({ port: 0, recordCount: RECORDS, rateLimits: GENEROUS_LIMITS }, { timeoutMs: 90_000 });
  console.log(
    `sandbox process with ${RECORDS.toLocaleString('en-US')} records ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // Warm-up, untimed: the JIT compiles the client's paging, parsing and validation before any run counts.
  for (const limit of [500, 50]) {
    const client = new RecallFeedClient({
      apiKey: sandbox.key,
      baseUrl: sandbox.url,
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
    });
    let pages = 0;
    for await (const _ of client.feedPages({ limit })) if (++pages >= 5000 / limit) break;
    await client.close();
  }
  await sandbox.requests(); // start from an empty log

  const runs = [];
  for (const limit of PLAN) {
    const maxPages = Math.ceil(RECORDS / limit) + 10;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`page size ${limit}: over ${RUN_TIMEOUT_MS / 1000} s`)),
      RUN_TIMEOUT_MS,
    );
    const client = new RecallFeedClient({ apiKey: sandbox.key, baseUrl: sandbox.url, signal: deadline.signal });
    const ids = new Set();
    let records = 0;
    let pages = 0;
    let error;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    try {
      for await (const page of client.feedPages({ limit })) {
        pages++;
        records += page.data.length;
        for (const r of page.data) ids.add(r.id);
        if (pages > maxPages) throw new Error(`more than ${maxPages} pages`);
      }
    } catch (err) {
      error = err;
    } finally {
      clearTimeout(timer);
      await client.close();
    }
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const served = await sandbox.requests();
    runs.push({
      limit,
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      records,
      unique: ids.size,
      pages,
      requests: served.count,
      statuses: served.statuses,
      error,
    });
    claims.check(
      `page size ${limit}: ${RECORDS} records, each once, no error`,
      !error && records === RECORDS && ids.size === RECORDS,
      error ? error.message : `${records} records, ${ids.size} distinct ids`,
    );
    claims.check(
      `page size ${limit}: ${Math.ceil(RECORDS / limit)} requests, all 200`,
      served.count === Math.ceil(RECORDS / limit) && served.statuses['200'] === served.count,
      `${served.count} requests: ${JSON.stringify(served.statuses)}`,
    );
  }

  const big = runs.filter((r) => r.limit === 500 && !r.error);
  const small = runs.find((r) => r.limit === 50 && !r.error);
  if (big.length > 0 && small) {
    // The mean of the two page-size-500 runs, which bracket the page-size-50 run.
    const mean = (f) => big.reduce((s, r) => s + f(r), 0) / big.length;
    const bigRate = mean((r) => r.records / r.ms);
    const smallRate = small.records / small.ms;
    const bigCpu = mean((r) => r.cpuMs);
    const bigReq = mean((r) => r.requests);
    console.log('\nper run, as ratios to the mean of the page-size-500 runs:');
    console.log(
      table(
        ['page size', 'requests', 'records/s', 'client CPU'],
        runs.map((r) => [r.limit, r.requests, ratio(r.records / r.ms, bigRate), ratio(r.cpuMs, bigCpu)]),
      ),
    );
    console.log(
      'records/s is wall time: the sandbox (another process on the same cores) answers every request, and\n' +
        'its per-request cost is part of what a smaller page pays for. Client CPU is this process alone.',
    );
    const spread = big.length === 2 ? Math.abs(big[0].ms - big[1].ms) / Math.min(big[0].ms, big[1].ms) : 0;
    if (spread > 0.25)
      claims.note(`the two page-size-500 runs differ by ${(spread * 100).toFixed(0)} % in wall time: a noisy machine`);
    claims.check(
      'page size 50 sends 10× the requests of page size 500',
      small.requests / bigReq === 10,
      ratio(small.requests, bigReq),
    );
    claims.check(
      'page size 500 pages faster than page size 50',
      bigRate > smallRate,
      `${ratio(bigRate, smallRate)} the records/s`,
    );
    claims.finish(
      `page size 500 vs 50: ${ratio(bigRate, smallRate)} the records/s, ${ratio(small.requests, bigReq)} fewer requests; page size 50 costs ${ratio(small.cpuMs, bigCpu)} the client CPU`,
    );
  } else {
    claims.finish('a run failed');
  }
} catch (err) {
  claims.crash(err);
} finally {
  await sandbox?.close().catch(() => {});
}
