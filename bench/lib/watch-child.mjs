// Child of watch-soak.mjs (run with --expose-gc): runs `feed --watch` in-process on a virtual clock and measures its heap.
import { Readable, Writable } from 'node:stream';
import { main } from '../../dist/cli/main.js';

if (typeof globalThis.gc !== 'function') {
  console.error('watch-child needs node --expose-gc');
  process.exit(2);
}

/** Waits for the parent's next message of `type`. */
function nextMessage(type) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m?.type !== type) return;
      process.off('message', on);
      resolve(m);
    };
    process.on('message', on);
  });
}

/** stdout: keeps only each line's id (never the lines), so the sink itself does not grow the heap. */
class IdSink extends Writable {
  constructor() {
    super({ decodeStrings: false });
    this.ids = [];
    this.bytes = 0;
    this.partial = '';
    this.badLines = 0;
  }

  _write(chunk, _enc, cb) {
    const text = String(chunk);
    this.bytes += Buffer.byteLength(text);
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop();
    for (const line of lines) {
      try {
        this.ids.push(JSON.parse(line).id);
      } catch {
        this.badLines++;
      }
    }
    cb();
  }
}

class CountSink extends Writable {
  constructor() {
    super({ decodeStrings: false });
    this.bytes = 0;
    this.lines = 0;
    this.last = '';
  }

  _write(chunk, _enc, cb) {
    const text = String(chunk);
    this.bytes += Buffer.byteLength(text);
    this.lines += text.split('\n').length - 1;
    if (text.trim()) this.last = text.trim().slice(0, 300);
    cb();
  }
}

const cfg = await nextMessage('start');
const stdout = new IdSink();
const stderr = new CountSink();
const controller = new AbortController();
let clock = Date.now();
let sleeps = 0;
const sleepMs = new Map();
const heap = [];
let dependantsAtEnd = 0;

function measureHeap(poll) {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  heap.push({ poll, heapUsed: m.heapUsed, rss: m.rss, external: m.external });
}

/** Every sleep ends one poll (the watch sleeps once per poll); the clock jumps, nothing waits. */
async function sleep(ms, signal) {
  if (signal?.aborted) throw signal.reason;
  sleeps++;
  sleepMs.set(ms, (sleepMs.get(ms) ?? 0) + 1);
  clock += ms;
  if (sleeps === 1 || sleeps % cfg.heapEvery === 0) measureHeap(sleeps);
  if (sleeps % cfg.reportEvery === 0 || sleeps >= cfg.polls) {
    // The parent counts the sandbox's requests and may add records before the next poll.
    process.send({ type: 'polled', polls: sleeps });
    await nextMessage('continue');
  }
  if (sleeps >= cfg.polls) {
    dependantsAtEnd = dependants(controller.signal);
    // An abort without a reason (an AbortError) ends a run like Ctrl-C does: exit 130.
    controller.abort();
    throw controller.signal.reason;
  }
}

const ctx = {
  stdout,
  stderr,
  stdin: Readable.from([]),
  env: { RECALL_FEED_API_KEY: cfg.key, RECALL_FEED_CONFIG_DIR: cfg.configDir, HOME: cfg.home },
  now: () => clock,
  sleep,
  signal: controller.signal,
};

/** Node 20's AbortSignal.any() keeps a WeakRef per combined signal in its sources until they abort. */
function dependants(signal) {
  const sym = Object.getOwnPropertySymbols(signal).find((x) => x.description === 'kDependantSignals');
  return sym ? (signal[sym]?.size ?? 0) : 0;
}
const code = await main(['--base-url', cfg.url, 'feed', '--watch', '--interval', '1', '-f', 'jsonl'], ctx);
process.send({
  type: 'done',
  code,
  sleeps,
  sleepMs: [...sleepMs],
  ids: stdout.ids,
  stdoutBytes: stdout.bytes,
  badLines: stdout.badLines + (stdout.partial ? 1 : 0),
  stderrBytes: stderr.bytes,
  stderrLines: stderr.lines,
  stderrLast: stderr.last,
  heap,
  // Read just before the abort.
  signalDependants: dependantsAtEnd,
});
process.disconnect();
