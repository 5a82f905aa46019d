// The values a filter warning names: blanks left out, a value a terminal would show like another quoted and escaped
// (as stats labels it), and the same list from feed (the window looked at) and query (the archive's counts).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Severities as a careless source writes them. */
const SEVERITIES: string[] = ['high', 'high', 'SERIOUS', 'Serious ', 'sérious', 'serious\u200b', '', '   ', 'Serious'];
const RISKS: string[][] = [['Fire'], ['fire '], ['FIRE'], ['Fire'], ['burn'], [''], ['\u2060'], [], []];

describe('values seen', () => {
  let sandbox: Sandbox;
  let db: string;
  beforeAll(async () => {
    db = path.join(tempDir('rf-seen-', { scope: 'file' }), 'archive.db');
    sandbox = await sandboxFor({ recordCount: 0, clock: () => FIXED_START });
    sandbox.addRecords(
      SEVERITIES.map((risk_severity, i) => ({
        data_source: 'us_cpsc',
        alert_title: `Recall ${i}`,
        risk_severity,
        risk_types: RISKS[i],
      })),
    );
    expect((await runMainAgainst(sandbox, ['sync', '--db', db], { clock: fakeClock(FIXED_START) })).code).toBe(0);
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const run = (args: string[]) => runMainAgainst(sandbox, [...args, '-f', 'jsonl'], { clock: fakeClock(FIXED_START) });

  // Counted by reading SEVERITIES: serious 4 (SERIOUS, Serious twice, sérious), high 2, serious+ZWSP 1; blanks none.
  const severity = 'values seen: serious, high, "serious\\u200b"';
  // fire 4 (Fire twice: its most common spelling), then burn and the word joiner alone (quoted), 1 each, in UTF-8 byte
  // order (b before U+2060); the blank none.
  const risk = 'values seen: Fire, burn, "\\u2060"';

  it('feed: blanks left out, the invisible one quoted and escaped', async () => {
    const r = await run(['feed', '--severity', '5', '--risk', 'smoke']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `warning: --severity 5 matched no recall of the 9 looked at; ${severity}\n` +
        `warning: --risk smoke matched no recall of the 9 looked at; ${risk}\n`,
    );
  });

  it('query names the same values', async () => {
    const r = await run(['query', '--db', db, '--severity', '5', '--risk', 'smoke']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `warning: --severity 5 matched no recall of the 9 in the archive; ${severity}\n` +
        `warning: --risk smoke matched no recall of the 9 in the archive; ${risk}\n`,
    );
  });
});
