// The /_sandbox/ hooks over HTTP and the in-process handle: request log, records, faults, health, reset, close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpecRecallSchema } from '../../src/api/schemas.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ALL, closeAgent, call, get } from './sandbox-helpers.js';
import { trackedSandbox } from '../helpers/sandbox.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await sb.close();
  await closeAgent();
});

describe('hooks and the in-process handle', () => {
  it('logs API requests by key name, never the key, and not the hooks', async () => {
    sb.clearRequests();
    await get(sb.url, '/v1/recalls/feed?limit=2&hours_ago=3');
    await get(sb.url, '/v1/recalls/sources', 'wrong');
    await get(sb.url, '/health', null);
    await call(sb.url, '/_sandbox/records');
    const log = sb.requests();
    expect(log.map((e) => [e.method, e.path, e.status, e.key])).toEqual([
      ['GET', '/v1/recalls/feed', 200, 'demo-all'],
      ['GET', '/v1/recalls/sources', 401, 'invalid'],
      ['GET', '/health', 200, 'missing'],
    ]);
    expect(log[0]?.query).toEqual({ limit: '2', hours_ago: '3' });
    expect(JSON.stringify(log)).not.toContain(ALL);
    const overHttp = await call(sb.url, '/_sandbox/requests');
    expect(overHttp.json.requests).toEqual(log);
    await call(sb.url, '/_sandbox/requests', { method: 'DELETE' });
    expect(sb.requests()).toEqual([]);
  });

  it('adds records in-process and over HTTP, published now, and they lead the feed', async () => {
    const before = sb.records().length;
    const [a] = sb.addRecords([{ data_source: 'uk_opss', alert_title: 'Added in a test' }]);
    expect(a?.alert_title).toBe('Added in a test');
    expect(SpecRecallSchema.parse(a)).toBeTruthy();
    const viaHttp = await call(sb.url, '/_sandbox/records', { method: 'POST', body: { count: 2 } });
    expect(viaHttp.status).toBe(201);
    expect(viaHttp.json.records).toHaveLength(2);
    expect(sb.records().length).toBe(before + 3);
    const feed = await get(sb.url, '/v1/recalls/feed?limit=5&sort_by=created_in_db_at');
    const ids = feed.json.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([a?.id, ...viaHttp.json.records.map((r: { id: number }) => r.id)]));
    const bad = await call(sb.url, '/_sandbox/records', {
      method: 'POST',
      body: { records: [{ published_at: 'yesterday' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.detail.error).toBe('validation_error');
    expect(() => sb.addRecords([{ id: a?.id as number }])).toThrow(/already exists/);
    await call(sb.url, '/_sandbox/reset', { method: 'POST' });
    expect(sb.records().length).toBe(before);
  });

  it('takes partial records, faults and health over HTTP', async () => {
    const added = await call(sb.url, '/_sandbox/records', {
      method: 'POST',
      body: { records: [{ data_source: 'rappel_conso', product_brand: 'Via HTTP' }] },
    });
    expect(added.status).toBe(201);
    expect(added.json.records[0]).toMatchObject({ data_source: 'rappel_conso', product_brand: 'Via HTTP' });
    const top = await get(sb.url, '/v1/recalls/feed?limit=1&sort_by=created_in_db_at&data_sources=rappel_conso');
    expect(top.json.data[0].id).toBe(added.json.records[0].id);
    expect((await call(sb.url, '/_sandbox/faults', { method: 'POST', body: { slow: 0.5, slowMs: 10 } })).json).toEqual({
      faults: { slow: 0.5, slowMs: 10 },
    });
    expect((await call(sb.url, '/_sandbox/faults')).json).toEqual({ faults: { slow: 0.5, slowMs: 10 } });
    expect((await call(sb.url, '/_sandbox/health', { method: 'POST', body: { healthy: false } })).json).toEqual({
      healthy: false,
    });
    expect((await get(sb.url, '/health', null)).status).toBe(503);
    await call(sb.url, '/_sandbox/reset', { method: 'POST' });
    expect((await call(sb.url, '/_sandbox/faults')).json).toEqual({ faults: {} });
    expect((await get(sb.url, '/health', null)).status).toBe(200);
  });

  it('refuses bad options at start', async () => {
    await expect(startSandbox({ faults: { cut: 3 } })).rejects.toThrow(/invalid fault config at cut/);
    await expect(
      startSandbox({
        rateLimits: {
          minute: { limit: 1, windowMs: 0 },
          hour: { limit: 1, windowMs: 1 },
          day: { limit: 1, windowMs: 1 },
          month: { limit: 1 },
        },
      }),
    ).rejects.toThrow(/rateLimits.minute/);
    expect(() => sb.setFaults({ burstLength: 0 })).toThrow(/burstLength/);
  });

  it('rejects bad hook bodies in the API envelope', async () => {
    const res = await call(sb.url, '/_sandbox/faults', { method: 'POST', body: { error500: 2 } });
    expect(res.status).toBe(400);
    expect(res.json.detail.error).toBe('validation_error');
    expect((await call(sb.url, '/_sandbox/nothing')).status).toBe(404);
    expect((await call(sb.url, '/_sandbox/reset')).status).toBe(405);
  });

  it('closes promptly with idle keep-alive sockets open', async () => {
    const other = await trackedSandbox({ recordCount: 10 });
    await get(other.url, '/health');
    const t = performance.now();
    await other.close();
    // Without closing idle sockets, close() waits out Node's 5 s keep-alive timeout: the bound is that, not speed.
    expect(performance.now() - t).toBeLessThan(4500);
  });
});

describe('POST /_sandbox/updates', () => {
  it('gives records of the window new versions and answers with their ids', async () => {
    const before = new Map(sb.records().map((r) => [r.id, r]));
    const res = await call(sb.url, '/_sandbox/updates', { method: 'POST', body: { count: 4 } });
    expect(res.status).toBe(200);
    const ids: number[] = res.json.ids;
    expect(new Set(ids).size).toBe(4);
    const feed = await get(sb.url, `/v1/recalls/feed?limit=500&sort_by=updated_at`);
    const served = new Map((feed.json.data as { id: number; updated_at: string }[]).map((r) => [r.id, r]));
    for (const id of ids) {
      expect(served.get(id)!.updated_at > before.get(id)!.updated_at).toBe(true);
    }
    const bad = await call(sb.url, '/_sandbox/updates', { method: 'POST', body: { count: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.json.detail.error).toBe('validation_error');
    expect((await call(sb.url, '/_sandbox/updates')).status).toBe(405);
  });
});
