// The config file end to end: a run that only reads creates nothing; an open file or folder is warned about
// on stderr (as ssh does) and tightened by the next write; files of earlier versions are read as they are.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 2 });
});
afterAll(async () => {
  await sandbox.close();
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('the config file', () => {
  it('a run that only reads, with no config file, creates no file and no folder', async () => {
    const root = tempDir('rf-noconf-');
    const dir = path.join(root, 'config', 'recall-feed');
    const r = await runMainAgainst(sandbox, ['feed', '--max', '2', '-f', 'jsonl'], {
      env: { RECALL_FEED_CONFIG_DIR: dir, HOME: root },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('a config file damaged by a hand edit is exit 2 for every command that reads it, left untouched, nothing sent', async () => {
    const dir = tempDir('rf-badconf-');
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"profiles": {"default": {"format": "csv",}}}\n');
    const env = { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: undefined };
    sandbox.clearRequests();
    for (const args of [
      ['--base-url', sandbox.url, 'feed', '--max', '1'],
      ['config', 'list'],
      ['config', 'set', 'format', 'json'],
    ]) {
      const r = await runMain(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: cannot read the config file ${file.replace(/[/.]/g, '\\$&')}: it is not valid JSON .*\nhint: fix or remove the file \\(it was left untouched\\)`,
        ),
      );
      expect(r.stdout).toBe('');
    }
    expect(sandbox.requests()).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"profiles": {"default": {"format": "csv",}}}\n');
  });

  it('warns of a 0644 file holding the key and a 0777 folder; the next write makes them 0600 and 0700', async () => {
    const dir = tempDir('rf-openconf-');
    const file = path.join(dir, 'config.json');
    // A file as earlier versions wrote it (tab-indented), left readable by others.
    fs.writeFileSync(file, JSON.stringify({ profiles: { default: { 'api-key': ALL_KEY } } }, undefined, '\t'));
    fs.chmodSync(file, 0o644);
    fs.chmodSync(dir, 0o777);
    const env = { RECALL_FEED_CONFIG_DIR: dir, RECALL_FEED_API_KEY: undefined };

    const read = await runMain(['--base-url', sandbox.url, 'feed', '--max', '1', '-f', 'jsonl'], { env });
    expect(read.code).toBe(0);
    expect(read.stderr).toContain(
      `warning: the config file ${file} holds a secret and is readable by others (0644); it is made 0600 on the next write, or run: chmod 600 '${file}'\n`,
    );
    expect(read.stderr).toContain(
      `warning: the config folder ${dir} is writable by others (0777); it is made 0700 on the next write, or run: chmod 700 '${dir}'\n`,
    );
    expect(read.stderr).not.toContain(ALL_KEY);
    // Reading changed nothing.
    expect([mode(file), mode(dir)]).toEqual([0o644, 0o777]);

    const set = await runMain(['config', 'set', 'format', 'csv'], { env });
    expect(set.code).toBe(0);
    expect([mode(file), mode(dir)]).toEqual([0o600, 0o700]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { 'api-key': ALL_KEY, format: 'csv' } },
    });
    const after = await runMain(['config', 'list'], { env });
    expect(after.stderr).not.toContain('warning');
    expect(after.stdout).toBe(`api-key=${ALL_KEY.slice(0, 8)}…${ALL_KEY.slice(-4)}\nformat=csv\n`);
  });
});
