// The flags match gained for issue 25 (--explain, --quality, the lot and best_before columns), in process: bad ones are exit 2 and send nothing.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';

const folder = tempFolder('rf-match-flags-');
const catalog = folder.file('products.csv');
writeFileSync(catalog, 'sku,gtin\nA,4006381333931\n');

describe('match flags', () => {
  it.each([
    [
      ['match', '--catalog', catalog, '--watch', '--explain'],
      'error: --explain works without --watch\nhint: run match --explain on the same window\n',
    ],
    [
      ['match', '--quality', '--catalog', catalog],
      "error: --quality reads the archive's cases and recalls: --catalog does not apply\nhint: example: recall-feed match --quality --since 90d\n",
    ],
    [
      ['match', '--quality', '--exit-code'],
      "error: --quality reads the archive's cases and recalls: --exit-code does not apply\nhint: example: recall-feed match --quality --since 90d\n",
    ],
    [['match', '--quality', '--interval', '5'], 'error: --interval works with match --watch\n'],
    [
      ['match', '--catalog', catalog, '--map', 'lot=Charge,best_before=MHD'],
      "error: the catalogue has no column 'Charge' (--map lot=Charge); its columns: sku, gtin\nhint: name the columns with --map gtin=<col>,brand=<col>,model=<col>,name=<col>\n",
    ],
  ])('%j', async (args, stderr) => {
    const r = await runMain(args, { env: { RECALL_FEED_API_KEY: 'rf_test_never_used' } });
    expect(r.stderr).toBe(stderr);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
