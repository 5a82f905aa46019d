// doctor on a fresh install with the default archive's path (docs/deploy.md's `doctor --db /data/recall-feed/recalls.db`
// on a new volume): a sync creates that folder, so doctor passes it when the nearest folder that exists is writable, as
// the sync then does; a folder --db names elsewhere must still exist.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/runtime/exit-codes.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 51 });
});
afterAll(async () => {
  await sandbox?.close();
});

async function archiveCheck(db: string, env: Record<string, string>) {
  const r = await runMainAgainst(sandbox, ['doctor', '--db', db, '-f', 'json'], { env });
  const report = JSON.parse(r.stdout) as { checks: Check[] };
  return { ...r, check: report.checks.find((c) => c.name === 'archive') };
}

describe('doctor before the first sync, at the default archive’s path', () => {
  it('its folder missing, the nearest one writable: ok (exit 0), nothing created; the sync then creates both', async () => {
    const root = tempDir('rf-doctor-fresh-');
    const data = path.join(root, 'data');
    const env = { XDG_DATA_HOME: data };
    const db = path.join(data, 'recall-feed', 'recalls.db');
    const r = await archiveCheck(db, env);
    expect(r.check?.status).toBe('ok');
    expect(r.check?.detail).toBe(
      `${db}: not created yet; the first \`recall-feed sync\` creates it (and its folder ${path.dirname(db)}: ${root} is writable); nothing else to check until then`,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(readdirSync(root)).toEqual([]);

    const sync = await runMainAgainst(sandbox, ['sync', '--db', db], { env });
    expect(sync.code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it('a file where a folder of the path should be: a failure (exit 16), as the sync fails too', async () => {
    const root = tempDir('rf-doctor-fresh-');
    const plain = path.join(root, 'plain');
    writeFileSync(plain, '');
    const env = { XDG_DATA_HOME: plain };
    const db = path.join(plain, 'recall-feed', 'recalls.db');
    const r = await archiveCheck(db, env);
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.check?.status).toBe('fail');
    expect(r.check?.detail).toBe(
      `${db}: no archive, and a sync could not create one: ${path.dirname(db)}: a parent of it is not a folder`,
    );
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { env })).code).toBe(EXIT.cannotWrite);
    expect(readdirSync(root)).toEqual(['plain']);
  });

  it('the default folder a link to a folder that is gone (an unmounted volume): a failure, as the sync fails', async () => {
    const root = tempDir('rf-doctor-fresh-');
    const data = path.join(root, 'data');
    mkdirSync(data);
    symlinkSync(path.join(root, 'unmounted'), path.join(data, 'recall-feed'));
    const env = { XDG_DATA_HOME: data };
    const db = path.join(data, 'recall-feed', 'recalls.db');
    const r = await archiveCheck(db, env);
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.check?.status).toBe('fail');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { env })).code).toBe(EXIT.cannotWrite);
    expect(existsSync(path.join(root, 'unmounted'))).toBe(false);
  });

  it('the same missing folder when it is not the default one: still a failure (a sync would refuse it)', async () => {
    const root = tempDir('rf-doctor-fresh-');
    const env = { XDG_DATA_HOME: path.join(root, 'elsewhere') };
    const db = path.join(root, 'data', 'recall-feed', 'recalls.db');
    const r = await archiveCheck(db, env);
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.check?.detail).toContain(`${path.dirname(db)}: it does not exist`);
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { env })).code).toBe(EXIT.cannotWrite);
    expect(readdirSync(root)).toEqual([]);
  });
});
