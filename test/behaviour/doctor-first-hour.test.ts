// doctor as a new user meets it: a config file it cannot read is a failed check in its own format (the other checks
// still run), a case-sla whose calendar is unknown is refused by `config set` and failed by doctor, and an archive not
// created yet (before the first sync) is a note, never a failure, and is still not there afterwards.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/runtime/exit-codes.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ENGINES } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 333 });
});
afterAll(async () => {
  await sandbox?.close();
});

async function doctor(args: string[], env: Record<string, string> = {}) {
  const r = await runMainAgainst(sandbox, ['doctor', ...args, '-f', 'json'], { env });
  const report = JSON.parse(r.stdout) as { status: string; checks: Check[] };
  const check = (name: string) => report.checks.find((c) => c.name === name);
  return { ...r, report, check };
}

describe('doctor and a config file it cannot use', () => {
  it('invalid JSON: the config check fails in doctor’s JSON, the others run, exit as for a failed check', async () => {
    const dir = tempDir('rf-doctor-cfg-');
    const file = path.join(dir, 'config.json');
    const broken = '{"profiles": {"default": {"format": "csv"';
    writeFileSync(file, broken, { mode: 0o600 });
    const r = await doctor([], { RECALL_FEED_CONFIG_DIR: dir });
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.report.status).toBe('fail');
    expect(r.check('config')?.status).toBe('fail');
    expect(r.check('config')?.detail).toContain(file);
    expect(r.check('config')?.detail).toMatch(/not valid JSON/);
    // The others ran without the profile: the API was reached and the key (from the environment) accepted.
    expect(r.check('api')?.status).toBe('ok');
    expect(r.check('key')?.status).toBe('ok');
    expect(r.report.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['config']);
    expect(r.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(broken);

    // And as a table on a terminal: the same finding, one row per check.
    const table = await runMainAgainst(sandbox, ['doctor'], {
      env: { RECALL_FEED_CONFIG_DIR: dir },
      stdoutIsTTY: true,
      columns: 120,
    });
    expect(table.code).toBe(EXIT.doctorFailed);
    expect(table.stdout).toMatch(/^config +fail +cannot read the config file/m);
    expect(table.stdout).toMatch(/^api +ok /m);
  });

  it('a value in the profile a run refuses: the config check fails naming it, the others run', async () => {
    const dir = tempDir('rf-doctor-cfg-');
    expect((await runMain(['config', 'set', 'timeout', '30'], { env: { RECALL_FEED_CONFIG_DIR: dir } })).code).toBe(0);
    const file = path.join(dir, 'config.json');
    // A hand edit: a value `config set` would have refused.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"timeout": ?30/, '"timeout": "soon"'));
    expect(readFileSync(file, 'utf8')).toContain('"soon"');
    const r = await doctor([], { RECALL_FEED_CONFIG_DIR: dir });
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.check('config')?.status).toBe('fail');
    expect(r.check('config')?.detail).toMatch(/timeout/);
    expect(r.check('api')?.status).toBe('ok');
  });
});

describe('case-sla and its calendar', () => {
  it('config set refuses a calendar no public holidays are known for (exit 2, one line and the forms expected)', async () => {
    const dir = tempDir('rf-sla-');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    const r = await runMain(['config', 'set', 'case-sla', '2wd:ZZ'], { env });
    expect(r.code).toBe(EXIT.usage);
    const [error, hint, ...rest] = r.stderr.split('\n');
    expect(error).toBe('error: invalid value "2wd:ZZ" for case-sla: no public holidays known for ZZ');
    expect(hint).toMatch(/^hint: expected .*2wd:FR/);
    expect(rest).toEqual(['']);
    expect((await runMain(['config', 'get', 'case-sla'], { env })).stdout).toBe('');
    const good = await runMain(['config', 'set', 'case-sla', '2wd:de'], { env });
    expect(good.code).toBe(0);
    expect((await runMain(['config', 'get', 'case-sla'], { env })).stdout).toBe('2wd:DE\n');
  });

  it('doctor fails a stored one (an older version, a hand edit) and passes a good one; match names the setting', async () => {
    const dir = tempDir('rf-sla-');
    const env = { RECALL_FEED_CONFIG_DIR: dir };
    expect((await runMain(['config', 'set', 'case-sla', '2wd:FR'], { env })).code).toBe(0);
    const fine = await doctor([], env);
    expect(fine.check('case-sla')?.status).toBe('ok');
    expect(fine.check('case-sla')?.detail).toMatch(/^2wd:FR: /);
    expect(fine.code).toBe(0);

    const file = path.join(dir, 'config.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('2wd:FR', '2wd:ZZ'));
    const bad = await doctor([], env);
    expect(bad.code).toBe(EXIT.doctorFailed);
    const check = bad.check('case-sla');
    expect(check?.status).toBe('fail');
    expect(check?.detail).toMatch(/2wd:ZZ: no public holidays known for ZZ/);
    expect(check?.hint).toMatch(/recall-feed config set case-sla/);
    expect(bad.check('config')?.status).toBe('ok');

    const catalogue = path.join(dir, 'products.csv');
    writeFileSync(catalogue, 'gtin,name\n4006381333931,Pen\n');
    const match = await runMainAgainst(sandbox, ['match', '--catalog', catalogue, '--archive', '--open-cases'], {
      env: { ...env, RECALL_FEED_DB: path.join(dir, 'recalls.db') },
    });
    expect(match.code).toBe(EXIT.usage);
    expect(match.stderr.split('\n')[0]).toBe('error: the case-sla setting 2wd:ZZ: no public holidays known for ZZ');
  });
});

describe.each(ENGINES)('doctor before the first sync, $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('an archive not created yet is a note (exit 0), and doctor does not create it', async () => {
    const archive = await testArchive(engine);
    const r = await doctor(['--db', archive.db]);
    const check = r.check('archive');
    expect(check?.status).toBe('ok');
    expect(check?.detail).toMatch(/not created yet; the first `recall-feed sync` creates it/);
    expect(r.code).toBe(0);
    if (engine === 'sqlite') {
      expect(existsSync(archive.db)).toBe(false);
      expect(readdirSync(path.dirname(archive.db))).not.toContain(path.basename(archive.db));
    } else {
      const schemas = await archive.rows<{ n: string }>(
        "SELECT count(*) AS n FROM pg_namespace WHERE nspname = 'recall_feed'",
      );
      expect(Number(schemas[0]?.n)).toBe(0);
    }
    // The sync it promised does create it; doctor then checks it as an archive.
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db])).code).toBe(0);
    expect((await doctor(['--db', archive.db])).check('archive')?.detail).toMatch(/opens; its schema/);
  });
});

describe('doctor and an archive a sync could not create', () => {
  it('its folder missing, or a file where the folder should be: still a failure (exit 16), nothing created', async () => {
    const dir = tempDir('rf-doctor-nofolder-');
    const missing = path.join(dir, 'no-such', 'recalls.db');
    const r = await doctor(['--db', missing]);
    expect(r.code).toBe(EXIT.doctorFailed);
    expect(r.check('archive')?.status).toBe('fail');
    expect(r.check('archive')?.detail).toContain(`${path.join(dir, 'no-such')}: it does not exist`);
    expect(r.check('archive')?.hint).toContain(`mkdir -p ${path.join(dir, 'no-such')}`);
    writeFileSync(path.join(dir, 'plain'), '');
    const underFile = await doctor(['--db', path.join(dir, 'plain', 'recalls.db')]);
    expect(underFile.code).toBe(EXIT.doctorFailed);
    expect(underFile.check('archive')?.status).toBe('fail');
    expect(readdirSync(dir)).toEqual(['plain']);
  });
});
