// `recall-feed sandbox --start-time` without a zone is UTC whatever the machine's TZ: a real process (a worker thread
// cannot change its zone) run under TZ=Pacific/Auckland serves the world of the same time in UTC. The flag's refusals
// and other forms: test/behaviour/sandbox-start-time.test.ts.
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleCliScript } from '../helpers/child-module.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { trackedSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** What bin/recall-feed.cjs does once it has the CLI (as helpers/source-cli.ts runs it, but left running here). */
const ENTRY = `import { main } from './src/cli/main.ts';
import { processContext } from './src/runtime/process-context.ts';
const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();`;

const TZ = 'Pacific/Auckland';
const START = '2026-03-29T01:00:00';

let cli: string;
beforeAll(async () => {
  cli = path.join(tempDir('rf-start-time-cli-', { scope: 'file' }), 'cli.mjs');
  await bundleCliScript(cli, ENTRY, 'sandbox-start-time-entry.ts');
}, 180_000);

/** The records a `recall-feed sandbox` process run under `TZ` with `args` serves, read before it is stopped. */
async function servedUnder(tz: string, args: string[]): Promise<unknown> {
  const child = execa(process.execPath, [cli, 'sandbox', '--port', '0', '--json', ...args], {
    env: { PATH: process.env.PATH, TZ: tz },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  deferCleanup(() => {
    child.kill('SIGKILL');
  });
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', () => reject(new Error(`the sandbox ended before printing its address: ${out}`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  const records = ((await (await fetch(`${url}/_sandbox/records`)).json()) as { records: unknown }).records;
  child.kill('SIGTERM');
  await child;
  return records;
}

describe(`sandbox --start-time ${START} under TZ=${TZ}`, () => {
  it('is the world of the same time in UTC, as on a UTC machine', async () => {
    // The zone is in effect for such a process: V8 would read the time 13 hours earlier there.
    const local = await execa(process.execPath, ['-e', `process.stdout.write(String(Date.parse('${START}')))`], {
      env: { TZ },
      extendEnv: false,
    });
    expect(Number(local.stdout)).toBe(Date.UTC(2026, 2, 29, 1) - 13 * 3_600_000);

    const utc = await trackedSandbox({ startTime: Date.UTC(2026, 2, 29, 1), recordCount: 30, seed: 7 });
    const served = await servedUnder(TZ, ['--start-time', START, '--records', '30', '--seed', '7']);
    expect(served).toEqual(utc.records());
  });
});
