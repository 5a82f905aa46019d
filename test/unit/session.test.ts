// The session a job gets: settings and terminal at once; the output chosen and checked before anything, filled atomically; the client on demand.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CannotWriteError, MissingApiKeyError, UsageError } from '../../src/runtime/cli-errors.js';
import type { Context } from '../../src/runtime/context.js';
import { createSession } from '../../src/runtime/session.js';
import type { GlobalFlags } from '../../src/runtime/settings.js';
import { tempDir } from '../helpers/temp-dir.js';

function context(env: Record<string, string | undefined> = {}): Context & { out: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  return {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { TERM: 'dumb', RECALL_FEED_CONFIG_DIR: tempDir('rf-session-config-'), ...env },
    now: () => Date.UTC(2026, 10, 26, 12),
    sleep: async () => {},
    signal: new AbortController().signal,
    out: () => Buffer.concat(chunks).toString('utf8'),
  };
}

const session = (globals: GlobalFlags, env?: Record<string, string | undefined>) =>
  createSession(globals, context(env));

describe('createSession', () => {
  it('resolves the settings (flag over environment) and sees a pipe, not a terminal', async () => {
    const s = await session({ timeout: '7' }, { RECALL_FEED_API_KEY: 'dr_live_from_env', RECALL_FEED_TIMEOUT: '9' });
    expect(s.settings.apiKey).toBe('dr_live_from_env');
    expect(s.settings.timeoutMs).toBe(7000);
    expect(s.terminal.stdoutIsTTY).toBe(false);
    await s.close();
  });

  it('names the default archive under XDG_DATA_HOME without opening it', async () => {
    const data = tempDir('rf-session-data-');
    const s = await session({}, { XDG_DATA_HOME: data });
    expect(s.archive({ db: undefined, schema: undefined }).name).toBe(path.join(data, 'recall-feed', 'recalls.db'));
    expect(readdirSync(data)).toEqual([]);
    await s.close();
  });
});

describe('session.output()', () => {
  it('chooses jsonl for a pipe and writes rows to stdout', async () => {
    const ctx = context();
    const s = await createSession({}, ctx);
    const output = await s.output();
    expect(output.format.name).toBe('jsonl');
    expect(output.toFile).toBe(false);
    await output.write((sink) => sink.rows({ tableColumns: ['id'] }, [{ id: 1, name: 'A' }]));
    expect(ctx.out()).toBe('{"id":1,"name":"A"}\n');
  });

  it('refuses an extension it does not write, and a missing folder, before anything is written', async () => {
    const dir = tempDir('rf-session-out-');
    await expect(session({ output: path.join(dir, 'x.tsv') }).then((s) => s.output())).rejects.toBeInstanceOf(
      UsageError,
    );
    const missing = path.join(dir, 'no-such-folder', 'x.csv');
    await expect(session({ output: missing }).then((s) => s.output())).rejects.toBeInstanceOf(CannotWriteError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fills a file by its extension, whole, and leaves nothing when the job fails', async () => {
    const dir = tempDir('rf-session-out-');
    const file = path.join(dir, 'cases.csv');
    const s = await session({ output: file });
    const output = await s.output();
    expect(output.format.name).toBe('csv');
    await expect(
      output.write(async (sink) => {
        await sink.text('id,name\n');
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    expect(readdirSync(dir)).toEqual([]);
    const written = await output.write((sink) =>
      sink.rows({ tableColumns: ['id'], csvColumns: ['id', 'name'] }, [{ id: 1, name: '=A' }]),
    );
    expect(written).toBe(1);
    // The csv renderer's formula guard is on by default: a cell starting with = is prefixed with '.
    expect(readFileSync(file, 'utf8')).toBe("id,name\n1,'=A\n");
    expect(readdirSync(dir)).toEqual(['cases.csv']);
  });

  it('takes a format the job decides (a digest, a report) without checking it against the record formats', async () => {
    const s = await session({ output: path.join(tempDir('rf-session-out-'), 'week.html') });
    expect((await s.output({ format: 'html' })).format.name).toBe('html');
  });
});

describe('session.api()', () => {
  it('refuses a run that needs a key and has none, and is asked the same way each time', async () => {
    const s = await session({});
    await expect(s.api({ needsKey: true })).rejects.toBeInstanceOf(MissingApiKeyError);
    expect(() => s.api({ needsKey: false })).toThrow(TypeError);
    await s.close();
  });
});
