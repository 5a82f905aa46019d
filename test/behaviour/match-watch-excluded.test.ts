// `match --watch` in process on a fake clock: an excluded row (out of the notice's lots) is printed with its evidence,
// but --exec and --webhook fire only for the match and possible rows.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const LINE = '3564709006031 V028 Date de durabilité minimale 04/04/2021';
const EVIDENCE = `standard_identifiers_and_barcodes: "${LINE}"`;

describe('match --watch with actions', () => {
  it('prints the excluded row with its evidence; actions fire for the match and the possible only', async () => {
    const dir = tempDir('rf-watch-excluded-');
    const sandbox = await sandboxFor({ recordCount: 10, seed: 3 });
    // A: the named lot (match); B: another lot (excluded); C: the same digits, wrong check digit (possible).
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, 'sku,ean,lot\nA,3564709006031,V028\nB,3564709006031,V031\nC,9990001112228,\n');
    const log = path.join(dir, 'acted.txt');
    const script = path.join(dir, 'act.cjs');
    writeFileSync(
      script,
      `require('fs').appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\n');`,
    );
    const receiver = await receivingServer();
    const stop = new AbortController();
    let recallId = 0;
    let sleeps = 0;
    // The first sleep follows the first poll: the notice arrives; the second follows the poll that found it.
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps === 1) {
        const [added] = sandbox.addRecords([
          {
            alert_title: 'Yaourt nature',
            standard_identifiers_and_barcodes: [LINE, '9990001112228'],
          },
        ]);
        recallId = (added as { id: number }).id;
      } else stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(
      sandbox,
      [
        'match',
        '--catalog',
        catalog,
        '--watch',
        '--interval',
        '1',
        '-f',
        'jsonl',
        '--exec',
        `'${process.execPath}' '${script}' {recall_id} {level} {sku}`,
        '--webhook',
        `${receiver.url}/hook`,
      ],
      { clock, signal: stop.signal },
    );
    expect(r.code, r.stderr).toBe(130);
    const rows = (jsonLines(r.stdout) as Rec[]).filter((x) => x.recall_id === recallId);
    expect(rows.map((x) => [x.sku, x.level, x.scope])).toEqual([
      ['A', 'match', 'in-scope'],
      ['C', 'possible', 'unknown'],
      ['B', 'excluded', 'out-of-scope'],
    ]);
    expect(rows[2]?.scope_evidence).toBe(EVIDENCE);
    expect(existsSync(log)).toBe(true);
    const acted = readFileSync(log, 'utf8').trim().split('\n').sort();
    expect(acted).toEqual([`${recallId} match A`, `${recallId} possible C`]);
    const posted = receiver.received.map((r) => JSON.parse(r.body) as Rec);
    expect(posted.map((b) => [b.sku, b.level]).sort()).toEqual([
      ['A', 'match'],
      ['C', 'possible'],
    ]);
  });

  it('-f table: each poll lists its matches first, then excluded rows, by severity within each', async () => {
    const dir = tempDir('rf-watch-table-');
    const sandbox = await sandboxFor({ recordCount: 10, seed: 3 });
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(
      catalog,
      'sku,ean,name,lot\nA,3564709006031,Nature-in-lot,V028\nB,3564709006031,Nature-other-lot,V031\nC,3564709006048,Fraise-in-lot,L77\nD,3564709006048,Fraise-other-lot,L78\n',
    );
    const stop = new AbortController();
    let sleeps = 0;
    // Both notices arrive in one poll: the low one first.
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps === 1)
        sandbox.addRecords([
          { risk_severity: 'low', standard_identifiers_and_barcodes: [LINE] },
          {
            risk_severity: 'serious',
            standard_identifiers_and_barcodes: ['3564709006048 L77 Date de durabilité minimale 04/04/2021'],
          },
        ]);
      else stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(
      sandbox,
      ['match', '--catalog', catalog, '--watch', '--interval', '1', '-f', 'table'],
      { clock, signal: stop.signal, columns: 400 },
    );
    expect(r.code, r.stderr).toBe(130);
    const names = ['Nature-in-lot', 'Nature-other-lot', 'Fraise-in-lot', 'Fraise-other-lot'];
    const order = names
      .map((n) => ({ n, at: r.stdout.indexOf(n) }))
      .sort((a, b) => a.at - b.at)
      .map((x) => x.n);
    expect(order).toEqual(['Fraise-in-lot', 'Nature-in-lot', 'Fraise-other-lot', 'Nature-other-lot']);
  });
});
