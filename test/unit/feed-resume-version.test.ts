// The resume fingerprint carries a version: a partial written by another version of recall-feed is refused, never continued.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 30 });
});

/** A real failed export into `dir`/x.jsonl: its partial and its state, as a run of this version leaves them. */
async function failedExport(dir: string): Promise<string> {
  const target = path.join(dir, 'x.jsonl');
  sandbox.setFaults({ failAfterPages: 1 });
  try {
    const r = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '10', '-o', target]);
    expect(r.code).toBe(6);
  } finally {
    sandbox.setFaults({});
  }
  return target;
}

describe('the resume fingerprint', () => {
  it('names its version', async () => {
    const target = await failedExport(tempDir('rf-resume-'));
    const state = JSON.parse(readFileSync(`${target}.partial.json`, 'utf8')) as { fingerprint: string };
    expect(JSON.parse(state.fingerprint)).toMatchObject({ version: 2, format: 'jsonl' });
  });

  it('a partial of another version (no version, as before versions) is refused before any request', async () => {
    const dir = tempDir('rf-resume-');
    const target = await failedExport(dir);
    const statePath = `${target}.partial.json`;
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { fingerprint: string };
    const { version: _, ...older } = JSON.parse(state.fingerprint) as Record<string, unknown>;
    writeFileSync(statePath, JSON.stringify({ ...state, fingerprint: JSON.stringify(older) }));
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, ['feed', '--page-size', '10', '-o', target, '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: cannot resume ${target}.partial: it was written by another version of recall-feed\nhint: run without --resume to start over\n`,
    );
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['x.jsonl.partial', 'x.jsonl.partial.json']);
  });

  it('the same version with other options is still "other options"', async () => {
    const target = await failedExport(tempDir('rf-resume-'));
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--page-size',
      '10',
      '--sort',
      'updated_at',
      '-o',
      target,
      '--resume',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot resume \S+x\.jsonl\.partial: it was written with other options\n/);
  });
});
