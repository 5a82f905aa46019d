// The test helpers: temp folders and sandboxes go when their test (or file) ends; the scripted server verifies its script.
import { existsSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';
import type { Sandbox } from '../../src/sandbox/index.js';

let fileDir: string;
let fileSandbox: Sandbox;
beforeAll(async () => {
  fileDir = tempDir();
  fileSandbox = await sandboxFor({ recordCount: 5 });
});
afterAll(() => {
  // The file's own after-hooks run before the cleanup: what beforeAll made is still there.
  expect(existsSync(fileDir)).toBe(true);
});

describe('temp folders and sandboxes', () => {
  let made: string | undefined;
  let sandbox: Sandbox | undefined;

  it('made inside a test, including unwritable folders in them', async () => {
    made = tempDir();
    const locked = path.join(made, 'locked');
    mkdirSync(locked);
    writeFileSync(path.join(locked, 'f'), 'x');
    chmodSync(locked, 0o000);
    sandbox = await sandboxFor({ recordCount: 5 });
    expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
  });

  it('are gone when that test ends', async () => {
    expect(made).toBeDefined();
    expect(existsSync(made!)).toBe(false);
    await expect(fetch(`${sandbox!.url}/health`)).rejects.toThrow();
  });

  it('made outside any test last until the file ends', async () => {
    expect(existsSync(fileDir)).toBe(true);
    expect((await fetch(`${fileSandbox.url}/health`)).status).toBe(200);
  });
});

describe('the scripted server', () => {
  it('fails when a scripted answer was never asked for', async () => {
    const srv = await scriptedServer([{ body: feedBody([]) }, { body: feedBody([]) }]);
    expect((await fetch(srv.url)).status).toBe(200);
    expect(() => srv.verify()).toThrow(/1 scripted answer\(s\) never asked for/);
    // The test's own close reports it; the automatic one at the end does not report it again.
    await expect(srv.close()).rejects.toThrow(/never asked for/);
  });

  it('fails when asked beyond the script', async () => {
    const srv = await scriptedServer([]);
    expect((await fetch(`${srv.url}/v1/x`)).status).toBe(599);
    await expect(srv.close()).rejects.toThrow(/request\(s\) after the script ran dry: GET \/v1\/x/);
  });

  it('passes when the script is used up exactly', async () => {
    const srv = await scriptedServer([{ body: feedBody([]) }]);
    expect((await fetch(srv.url)).status).toBe(200);
    expect(() => srv.verify()).not.toThrow();
  });
});
