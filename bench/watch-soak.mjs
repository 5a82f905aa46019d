// 1,000 polls of `feed --watch` on a virtual clock: each new record printed once, one request per poll, a flat heap.
import { fork } from 'node:child_process';
import path from 'node:path';
import { Claims, cleanEnv, GENEROUS_LIMITS, mb, ratio, requireBuild, ROOT, table, tempDir } from './lib/common.mjs';

const POLLS = 1_000;
/** Records are added after every ADD_EVERY-th poll, ADD_COUNT at a time; the next poll must print them. */
const ADD_EVERY = 10;
const ADD_COUNT = 3;
const HEAP_EVERY = 100;
const PAGE_SIZE = 500;
/** The heap after a full GC at poll 1,000 against poll 100: under 1.3×, or under +5 MB. */
const HEAP_RATIO_LIMIT = 1.3;
const HEAP_DELTA_LIMIT = 5 * 1024 * 1024;
const TIMEOUT_MS = 180_000;

const claims = new Claims('watch-soak');
let sandbox;
let child;
try {
  requireBuild();
  const { startSandbox, DEMO_KEYS } = await import('../dist/sandbox/index.js');
  const dir = tempDir('watch');
  sandbox = await startSandbox({ port: 0, rateLimits: GENEROUS_LIMITS, arrivalsPerMinute: 0 });
  const hourAgo = Date.now() - 3_600_000;
  const initial = sandbox.records().filter((r) => Date.parse(`${r.published_at.replace(/Z$/, '')}Z`) >= hourAgo).length;

  const added = [];
  let requests = 0;
  const badRequests = [];
  const started = performance.now();

  child = fork(path.join(ROOT, 'bench', 'lib', 'watch-child.mjs'), [], {
    cwd: ROOT,
    execArgv: ['--expose-gc'],
    env: cleanEnv(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the watch did not finish ${POLLS} polls within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    child.on('message', (m) => {
      if (m.type === 'polled') {
        // Count and drop the sandbox's log as we go, so it never grows with the soak.
        for (const r of sandbox.requests()) {
          requests++;
          if (r.status !== 200 || r.path !== '/v1/recalls/feed' || r.query.limit !== String(PAGE_SIZE)) {
            if (badRequests.length < 5) badRequests.push(`${r.status} ${r.path} limit=${r.query.limit}`);
          }
        }
        sandbox.clearRequests();
        if (m.polls % ADD_EVERY === 0 && m.polls < POLLS) added.push(...sandbox.addRecords(ADD_COUNT).map((r) => r.id));
        child.send({ type: 'continue' });
      } else if (m.type === 'done') {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the watch child exited (${signal ?? code}) before reporting`));
    });
  });
  child.send({
    type: 'start',
    url: sandbox.url,
    key: DEMO_KEYS.all.key,
    configDir: path.join(dir, 'config'),
    home: dir,
    polls: POLLS,
    reportEvery: ADD_EVERY,
    heapEvery: HEAP_EVERY,
  });
  const r = await done;
  const seconds = (performance.now() - started) / 1000;

  console.log(
    `${r.sleeps} polls in ${seconds.toFixed(1)} s of real time (${Math.round(r.sleeps / seconds)} polls/s); ${initial} records in the first window, ${added.length} added during the soak`,
  );
  console.log(
    `stdout: ${r.ids.length} lines, ${mb(r.stdoutBytes)}; stderr: ${r.stderrLines} lines, ${r.stderrBytes} bytes${r.stderrLast ? `; last: ${r.stderrLast}` : ''}`,
  );
  console.log('\nheap after a full GC (child process, --expose-gc):');
  console.log(
    table(
      ['poll', 'heapUsed', 'rss', 'vs poll 100'],
      r.heap.map((h) => {
        const at100 = r.heap.find((x) => x.poll === HEAP_EVERY);
        return [h.poll, mb(h.heapUsed), mb(h.rss), at100 ? ratio(h.heapUsed, at100.heapUsed) : '-'];
      }),
    ),
  );

  claims.check('the watch ends with exit code 130 when aborted', r.code === 130, `exit ${r.code}`);
  claims.check(
    `${POLLS} polls, each followed by one 1 s sleep and no other sleep`,
    r.sleeps === POLLS && r.sleepMs.length === 1 && r.sleepMs[0][0] === 1000,
    `${r.sleeps} sleeps; durations ${r.sleepMs.map(([ms, n]) => `${ms} ms ×${n}`).join(', ')}`,
  );
  // The last report comes from the final sleep: every request of the run has been counted by then.
  claims.check(
    `sandbox requests = polls × 1 page (page size ${PAGE_SIZE})`,
    requests === r.sleeps,
    `${requests} requests for ${r.sleeps} polls`,
  );
  claims.check('every request was a 200 feed page of 500', badRequests.length === 0, badRequests.join('; '));
  const counts = new Map();
  for (const id of r.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const dupes = [...counts].filter(([, n]) => n > 1);
  const missing = added.filter((id) => counts.get(id) !== 1);
  claims.check('every line of stdout is a JSON record', r.badLines === 0, `${r.badLines} bad lines`);
  claims.check(
    'every record was written at most once',
    dupes.length === 0,
    dupes
      .slice(0, 5)
      .map(([id, n]) => `${id} ×${n}`)
      .join(', ') || `${counts.size} distinct ids`,
  );
  claims.check(
    `each of the ${added.length} added records was written exactly once`,
    missing.length === 0,
    missing.length ? `${missing.length} missing or repeated, e.g. ${missing.slice(0, 5).join(', ')}` : '',
  );
  claims.check(
    'the first poll printed the window as it was',
    r.ids.length - added.length >= initial - 5 && r.ids.length - added.length <= initial,
    `${r.ids.length - added.length} of ${initial} initial records (a few may age out of the 1 h window)`,
  );

  if (r.signalDependants > 0) {
    claims.note(
      `the context's signal holds ${r.signalDependants} dependent-signal WeakRefs after ${requests} requests: ` +
        'AbortSignal.any([signal, timeout]) per request (src/api/transport.ts send()); Node 20 never prunes them ' +
        '(nodejs/node#55351): a WeakRef and a Set entry, ~58 B, per request for as long as the watch runs',
    );
  }
  const h100 = r.heap.find((h) => h.poll === HEAP_EVERY);
  const hEnd = r.heap.find((h) => h.poll === POLLS);
  let headline = `${r.sleeps} polls, ${requests} requests`;
  if (h100 && hEnd) {
    const grew = hEnd.heapUsed - h100.heapUsed;
    const flat = hEnd.heapUsed < h100.heapUsed * HEAP_RATIO_LIMIT || grew < HEAP_DELTA_LIMIT;
    claims.check(
      `heap at poll ${POLLS} < ${HEAP_RATIO_LIMIT}× or < +5 MB of poll ${HEAP_EVERY}`,
      flat,
      `${mb(h100.heapUsed)} -> ${mb(hEnd.heapUsed)}, ${ratio(hEnd.heapUsed, h100.heapUsed)}, ${grew >= 0 ? '+' : ''}${(grew / 1024).toFixed(0)} KB`,
    );
    headline += `, heap poll ${POLLS}/poll ${HEAP_EVERY} ${ratio(hEnd.heapUsed, h100.heapUsed)} (${grew >= 0 ? '+' : ''}${(grew / 1024).toFixed(0)} KB)`;
  } else {
    claims.check('heap measured at polls 100 and 1,000', false);
  }
  claims.finish(headline);
} catch (err) {
  claims.crash(err);
} finally {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sandbox?.close();
}
