// `recall-feed sandbox`: prints its URL (or a JSON line) first, serves the API, and stops cleanly on a signal.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, cleanEnv, ALL_KEY, jsonLines, runCli } from '../helpers/cli.js';

async function firstLine(child: ReturnType<typeof execa>): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', () => reject(new Error(`exited before printing a line: ${buf}`)));
  });
}

describe('recall-feed sandbox', () => {
  it('--port 0 prints the URL first, serves the feed, and exits 0 on SIGTERM', async () => {
    const child = execa('node', [BIN, 'sandbox', '--port', '0', '--records', '50'], { reject: false, env: cleanEnv(), extendEnv: false });
    const url = await firstLine(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await runCli(['--base-url', url, 'feed'], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
    expect(r.exitCode).toBe(0);
    expect(jsonLines(r.stdout).length).toBeGreaterThan(40);
    child.kill('SIGTERM');
    const done = await child;
    expect(done.exitCode).toBe(0);
  });

  it('--json prints one line with the URL and the keys, and SIGINT stops it', async () => {
    const child = execa('node', [BIN, 'sandbox', '--port', '0', '--json'], { reject: false, env: cleanEnv(), extendEnv: false });
    const line = JSON.parse(await firstLine(child)) as { url: string; keys: { key: string; sources: string[] }[] };
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.keys).toEqual([
      { key: ALL_KEY, sources: ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'] },
      { key: expect.stringMatching(/^dr_test_/), sources: ['us_cpsc', 'uk_opss'] },
    ]);
    const health = await runCli(['--base-url', line.url, 'health']);
    expect(health.exitCode).toBe(0);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('rejects bad options with exit 2', async () => {
    const r = await runCli(['sandbox', '--faults', '500=2']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--faults/);
    const p = await runCli(['sandbox', '--port', '99999']);
    expect(p.exitCode).toBe(2);
  });

  it('a port in use is a usage error naming the port, with a hint', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const r = await runCli(['sandbox', '--port', String(port)]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: port ${port} is taken (127.0.0.1:${port} is already in use)\n` +
          'hint: choose another --port, or --port 0 to pick a free one\n',
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('an address that is not on this machine is a usage error', async () => {
    // 192.0.2.0/24 is TEST-NET-1: never assigned to a local interface, so binding fails at once.
    const r = await runCli(['sandbox', '--host', '192.0.2.1', '--port', '0']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot listen on 192\.0\.2\.1:0: no such address on this machine\nhint: /);
  });
});
