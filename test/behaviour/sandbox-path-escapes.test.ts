// The sandbox over real HTTP: a custom feed path whose percent-escapes decode to no text is 404 not_found (never a
// 500 that clients would retry), and every answer is dated on the sandbox's own clock, as its reset_at is.
import { afterAll, describe, expect, it } from 'vitest';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { closeAgent, get } from './sandbox-helpers.js';

afterAll(async () => {
  await closeAgent();
});

const NO_SUCH = (path: string) => ({
  detail: {
    error: 'not_found',
    message: `No such endpoint: ${path}`,
    help: 'See the API documentation for the available endpoints.',
  },
});

describe('custom feed paths with broken percent-escapes', () => {
  it('are 404 not_found, logged as such; a well-formed escape still names the feed', async () => {
    const sb = await sandboxFor({ clock: () => FIXED_START });
    // A lone lead byte, a bad hex pair, and a lead byte followed by a byte that cannot continue it.
    for (const path of ['/v1/recalls/feed/%E0', '/v1/recalls/feed/%zz', '/v1/recalls/feed/%C3%28']) {
      const answer = await get(sb.url, path);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual(NO_SUCH(path));
    }
    const demo = await get(sb.url, '/v1/recalls/feed/de%6Do?limit=1');
    expect(demo.status).toBe(200);
    expect(demo.json.success).toBe(true);
    expect(sb.requests().map((r) => [r.path, r.status])).toEqual([
      ['/v1/recalls/feed/%E0', 404],
      ['/v1/recalls/feed/%zz', 404],
      ['/v1/recalls/feed/%C3%28', 404],
      ['/v1/recalls/feed/de%6Do', 200],
    ]);
  });
});

describe('the Date header', () => {
  it("is the sandbox's clock, not the machine's", async () => {
    const sb = await sandboxFor({ clock: () => FIXED_START });
    const expected = 'Thu, 15 Jan 2026 12:00:00 GMT'; // FIXED_START, 2026-01-15T12:00:00Z
    expect((await get(sb.url, '/health', null)).headers.date).toBe(expected);
    expect((await get(sb.url, '/v1/recalls/feed?limit=1')).headers.date).toBe(expected);
    expect((await get(sb.url, '/v1/recalls/nothing')).headers.date).toBe(expected);
  });
});
