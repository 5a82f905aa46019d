// `match --learn` writes its learned file as -o, --state and --metrics-file are written: through a symbolic link (the
// link stays a link), keeping an existing file's mode; a new file is 0644.
import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-learned-link-');
const db = path.join(dir, 'a.db');
const catalogue = path.join(dir, 'products.csv');
let sandbox: Sandbox;
const run = (args: string[]) => runMainAgainst(sandbox, args, { clock: fakeClock(FIXED_START + 3_600_000) });
const learn = (more: string[] = []) => run(['match', '--learn', '--catalog', catalogue, '--db', db, ...more]);
const mode = (file: string) => statSync(file).mode & 0o777;

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
  sandbox.addRecords([
    {
      data_source: 'us_cpsc',
      product_brand: 'Nordvik',
      product_name: 'Kielbasa Turkey Sausage',
      standard_identifiers_and_barcodes: [],
      product_model_numbers: [],
    },
  ]);
  writeFileSync(catalogue, 'sku,brand,name\nK1,Nordvik,Kielbasa Turkey Sausage\n');
  expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  const opened = await run(['match', '--catalog', catalogue, '--archive', '--db', db, '--open-cases']);
  expect(opened.code, opened.stderr).toBe(0);
  const cases = jsonLines((await run(['cases', '--db', db, '-f', 'jsonl'])).stdout);
  expect(cases).toHaveLength(1);
  const resolved = await run(['cases', 'resolve', String(cases[0]?.id), '--as', 'removed-from-sale', '--db', db]);
  expect(resolved.code, resolved.stderr).toBe(0);
});

describe('the learned file', () => {
  it('behind a symbolic link: the file it points to is written, the link stays a link, a 0600 file stays 0600', async () => {
    const kept = path.join(dir, 'dotfiles');
    mkdirSync(kept);
    const real = path.join(kept, 'learned.json');
    writeFileSync(real, '{"stale":true}\n');
    chmodSync(real, 0o600);
    const link = `${catalogue}.learned.json`;
    symlinkSync(path.join('dotfiles', 'learned.json'), link);
    try {
      const r = await learn();
      expect(r.code, r.stderr).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      const learned = JSON.parse(readFileSync(real, 'utf8'));
      expect(learned.cases).toBe(1);
      expect(mode(real)).toBe(0o600);
      expect(readdirSync(kept)).toEqual(['learned.json']);
    } finally {
      // The next test's file is a new one.
      for (const f of [link, real]) rmSync(f, { force: true });
    }
  });

  it('a dangling link (--learned) creates the file it names; a new file is 0644, an existing 0640 one stays 0640', async () => {
    const link = path.join(dir, 'new.learned.json');
    const real = path.join(dir, 'made-through.json');
    symlinkSync(real, link);
    const first = await learn(['--learned', link]);
    expect(first.code, first.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8')).cases).toBe(1);
    expect(mode(real)).toBe(0o644);
    chmodSync(real, 0o640);
    const again = await learn(['--learned', link]);
    expect(again.code, again.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(mode(real)).toBe(0o640);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a link another user planted at the default name is replaced, never written through (root's run)",
    async () => {
      const secret = path.join(dir, 'secret');
      mkdirSync(secret, { mode: 0o700 });
      const precious = path.join(secret, 'precious.txt');
      writeFileSync(precious, 'IMPORTANT\n', { mode: 0o600 });
      const link = `${catalogue}.learned.json`;
      symlinkSync(precious, link);
      lchownSync(link, 65534, 65534);
      try {
        const r = await learn();
        expect(r.code, r.stderr).toBe(0);
        expect(readFileSync(precious, 'utf8')).toBe('IMPORTANT\n');
        expect(lstatSync(link).isSymbolicLink()).toBe(false);
        expect(JSON.parse(readFileSync(link, 'utf8')).cases).toBe(1);
        expect(statSync(link)).toMatchObject({ uid: 0 });
        expect(mode(link)).toBe(0o644);
      } finally {
        for (const f of [link, secret]) rmSync(f, { force: true, recursive: true });
      }
    },
  );

  it.skipIf(process.getuid?.() !== 0)("replaced by root, a user's file keeps its owner and group", async () => {
    const file = path.join(dir, 'users.learned.json');
    writeFileSync(file, '{}\n');
    chownSync(file, 65534, 65534);
    const r = await learn(['--learned', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).cases).toBe(1);
    expect(statSync(file)).toMatchObject({ uid: 65534, gid: 65534 });
  });
});
