// sources, health and config end to end (precedence and the config views run in process: test/unit/cli-precedence.test.ts).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, LIMITED_KEY, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor();
});
afterAll(() => sandbox.close());

describe('sources', () => {
  it("lists the key's sources in every format", async () => {
    const jl = await runMainAgainst(sandbox, ['sources'], { env: { RECALL_FEED_API_KEY: LIMITED_KEY } });
    expect(jl.code).toBe(0);
    expect(jsonLines(jl.stdout).map((s) => s.id)).toEqual(['us_cpsc', 'uk_opss']);
    const json = await runMainAgainst(sandbox, ['sources', '-f', 'json']);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((s) => s.id)).toEqual([
      'us_cpsc',
      'safety_gate',
      'uk_opss',
      'rappel_conso',
      'rappel_conso_food',
    ]);
    const csv = await runMainAgainst(sandbox, ['sources', '-f', 'csv']);
    expect(lines(csv.stdout)[0]).toBe('id,name,description,official_url');
    expect(lines(csv.stdout)).toHaveLength(6);
    const table = await runMainAgainst(sandbox, ['sources'], { env: { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '120' } });
    expect(lines(table.stdout)[0]).toMatch(/^id\s+name\s+description\s+official_url/);
    expect(table.stderr).toBe('5 data sources available to this key\n');
  });

  it('--columns: a name no source has is warned about, with the nearest field', async () => {
    const r = await runMainAgainst(sandbox, ['sources', '-f', 'csv', '--columns', 'id,nme']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      'id,nme',
      'us_cpsc,',
      'safety_gate,',
      'uk_opss,',
      'rappel_conso,',
      'rappel_conso_food,',
    ]);
    expect(r.stderr).toBe("warning: no record has the column 'nme' (left empty); did you mean name (for 'nme')?\n");
  });
});

describe('health', () => {
  it('-o writes the status line to the file, not stdout; an unhealthy answer is written there too', async () => {
    const file = path.join(tempDir(), 'health.json');
    const ok = await runMain(['--base-url', sandbox.url, 'health', '-f', 'json', '-o', file]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ healthy: true, http_status: 200 });
    sandbox.setHealthy(false);
    try {
      const text = path.join(tempDir(), 'health.txt');
      const bad = await runMain(['--base-url', sandbox.url, 'health', '-o', text]);
      expect(bad.code).toBe(6);
      expect(bad.stdout).toBe('');
      expect(readFileSync(text, 'utf8')).toMatch(new RegExp(`^unhealthy \\(HTTP 503, \\d+ ms.*\\) ${sandbox.url}\n$`));
    } finally {
      sandbox.setHealthy(true);
    }
  });
});

describe('health -o, without -f', () => {
  it("picks the format by the file's extension (.json, .jsonl); a pipe and the profile's format keep the line", async () => {
    const dir = tempDir();
    const config = { env: { RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') } };
    expect((await runMain(['config', 'set', 'format', 'jsonl'], config)).code).toBe(0);
    for (const name of ['status.json', 'status.jsonl']) {
      const file = path.join(dir, name);
      const r = await runMain(['--base-url', sandbox.url, 'health', '-o', file], config);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const written = readFileSync(file, 'utf8');
      expect(lines(written)).toHaveLength(1);
      expect(JSON.parse(written)).toMatchObject({ healthy: true, http_status: 200, status: 'healthy' });
    }
    const piped = await runMain(['--base-url', sandbox.url, 'health'], config);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(new RegExp(`^healthy \\(HTTP 200, \\d+ ms.*\\) ${sandbox.url}\n$`));
  });
});

describe('health, a server that sends control codes', () => {
  it('prints its status and version on one line without them; the JSON keeps them, escaped', async () => {
    const body = { status: 'healthy\u001b[2J', version: '1\u001b]52;c;ZXZpbA==\u0007\r\n2' };
    const server = await handlerServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    // Not the word 'healthy': unhealthy (exit 6), the line written first.
    const r = await runMain(['--base-url', server.url, 'health']);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(
      new RegExp(`^healthy\\[2J \\(HTTP 200, \\d+ ms, version 1\\]52;c;ZXZpbA== 2\\) ${server.url}\n$`),
    );
    expect(r.stderr).toBe("error: the API reports 'healthy[2J' (HTTP 200)\n");
    const json = await runMain(['--base-url', server.url, 'health', '-f', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject(body);
  });
});

describe('config', () => {
  it('stores the key piped on stdin in a 0600 file in a 0700 folder, and the stored key works', async () => {
    const dir = path.join(tempDir(), 'nested');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const set = await runMain(['config', 'set', 'api-key'], { env, stdin: `  ${ALL_KEY}  \n` });
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).not.toContain(ALL_KEY);
    const file = (await runMain(['config', 'path'], { env })).stdout.trim();
    expect(path.dirname(file)).toBe(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toContain(ALL_KEY);
    const feed = await runMain(['--base-url', sandbox.url, 'feed', '--max', '1'], { env });
    expect(feed.code).toBe(0);
    expect(jsonLines(feed.stdout)).toHaveLength(1);
  });
});
