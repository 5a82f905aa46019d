// A case step's output is chosen before the step: a -o it cannot write is refused and no case moves (issue 27).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { withCheck, yoghurtWithBarcode } from '../helpers/barcodes.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;

const clock = fakeClock(FIXED_START);
let dir: string;
let db: string;

async function listed(): Promise<Rec[]> {
  const r = await runMain(['cases', '--status', 'all', '--db', db, '-f', 'jsonl'], { clock });
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout) as Rec[];
}

beforeAll(async () => {
  dir = tempDir('rf-case-step-');
  db = path.join(dir, 'a.db');
  const sandbox = await sandboxFor({ recordCount: 0, seed: 3, clock: () => FIXED_START });
  const codes = [withCheck('356000000001'), withCheck('356000000002')];
  sandbox.addRecords(codes.map(yoghurtWithBarcode));
  expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock })).code).toBe(0);
  const catalog = path.join(dir, 'catalogue.csv');
  writeFileSync(catalog, `sku,ean\nA1,${codes[0]}\nA2,${codes[1]}\n`);
  const opened = await runMain(['match', '--catalog', catalog, '--archive', '--db', db, '--open-cases'], { clock });
  expect(opened.code, opened.stderr).toBe(0);
  expect((await listed()).map((c) => c.status)).toEqual(['open', 'open']);
});

describe('a case step with an -o it cannot write', () => {
  it('refuses -o x.gz before the step: exit 2, no file, the case unchanged', async () => {
    const [first] = await listed();
    const out = path.join(dir, 'step.json.gz');
    const r = await runMain(['cases', 'resolve', String(first!.id), '--as', 'false-positive', '--db', db, '-o', out], {
      clock,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`error: recall-feed does not write .gz files (-o ${out})`);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    const after = (await listed()).find((c) => c.id === first!.id)!;
    expect(after.status).toBe('open');
    expect(after.events).toHaveLength(first!.events.length);
  });

  it('a bulk wait by selection with -o x.tsv moves none of the cases', async () => {
    const before = await listed();
    const r = await runMain(['cases', 'wait', '--level', 'match', '--yes', '--db', db, '-o', path.join(dir, 'x.tsv')], {
      clock,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: recall-feed does not write \.tsv files/);
    expect(await listed()).toEqual(before);
    expect(readdirSync(dir).filter((f) => !/^(a\.db.*|catalogue\.csv)$/.test(f))).toEqual([]);
  });

  it('refuses -o into a folder that does not exist before the step: exit 10, the case unchanged', async () => {
    const [first] = await listed();
    const out = path.join(dir, 'no-such-folder', 'step.json');
    const r = await runMain(['cases', 'resolve', String(first!.id), '--as', 'false-positive', '--db', db, '-o', out], {
      clock,
    });
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr.split('\n')[0]).toContain(`cannot write ${out}`);
    expect(r.stdout).toBe('');
    expect(existsSync(path.dirname(out))).toBe(false);
    const after = (await listed()).find((c) => c.id === first!.id)!;
    expect(after.status).toBe('open');
    expect(after.events).toHaveLength(first!.events.length);
  });

  it('with a file it can write, the step is made and the case written there', async () => {
    const first = (await listed()).find((c) => c.status !== 'closed');
    const out = path.join(dir, 'step.json');
    const r = await runMain(['cases', 'wait', String(first!.id), '--note', 'asked', '--db', db, '-o', out], { clock });
    expect(r.code, r.stderr).toBe(0);
    const after = (await listed()).find((c) => c.id === first!.id)!;
    expect(after.status).toBe('waiting');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(after);
  });
});
