// `recall-feed sandbox`: prints its URL (or a JSON line) first, serves the API, and stops cleanly on a signal (bad options: test/unit/cli-input.test.ts).
import { describe, expect, it } from 'vitest';
import { ALL_KEY, jsonLines, runCli } from '../helpers/cli.js';

async function firstLine(child: ReturnType<typeof runCli>): Promise<string> {
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
    const child = runCli(['sandbox', '--port', '0', '--records', '50']);
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
    const child = runCli(['sandbox', '--port', '0', '--json']);
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
});
