// `recall-feed --base-url <sandbox> match --catalog <file> -f jsonl` (or any command) run in this process by the built
// CLI's main(): its rows, stderr and exit code. Shared by the benchmarks that score match (match-quality, scope-accuracy).
import path from 'node:path';
import { Readable, Writable } from 'node:stream';

class Collect extends Writable {
  constructor() {
    super({ decodeStrings: false });
    this.text = '';
  }

  _write(chunk, _enc, cb) {
    this.text += String(chunk);
    cb();
  }
}

/** `recall-feed --base-url <url> <args…>` in this process: its exit code, stdout and stderr. */
export async function runCliInProcess(main, url, key, dir, args) {
  const stdout = new Collect();
  const stderr = new Collect();
  const ctx = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    env: { RECALL_FEED_API_KEY: key, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'), HOME: dir, TERM: 'dumb' },
    now: () => Date.now(),
    // Generous limits: the client never paces, so a sleep would be a retry, which the benchmarks' claims rule out.
    sleep: async () => {},
    signal: new AbortController().signal,
  };
  const code = await main(['--base-url', url, ...args], ctx);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * `match --catalog <catalogue> -f jsonl -v` (and `extra` flags): its rows, stderr and exit code. `-v`: off a terminal
 * match says its summary (`recalls: N`, the counts) only when asked.
 */
export async function runMatchInProcess(main, url, key, dir, catalogue, extra = []) {
  const args = ['match', '--catalog', catalogue, '-f', 'jsonl', '-v', ...extra];
  const run = await runCliInProcess(main, url, key, dir, args);
  const rows = run.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  return { code: run.code, rows, stderr: run.stderr };
}
