// A CSV row shifted by a comma in an unquoted value, whose extra or missing cells happen to be empty, is not mistaken for
// an export's trailing delimiters (which look the same): its lot never excludes it, whole or streamed. And a header after blank lines is found.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeEnoughToStream } from '../../src/jobs/match/stream-match.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-match-shifted-');

// Its scope is lot L555: a row whose lot cell reads L999 or 2024 is out of it, if that cell is really its lot.
const GADGET = {
  alert_title: 'Acmeco recalls Gadget Pro',
  product_name: 'Gadget Pro',
  product_brand: 'Acmeco',
  standard_identifiers_and_barcodes: [{ type: 'EAN', value: '5901234123457' }],
  production_dates: 'Lot L555',
  geo_jurisdictions: ['FR'],
};
const EAN = '5901234123457';
const WHOLE_OR_STREAMED = [
  ['held whole', false],
  ['streamed', true],
] as const;

/**
 * Runs match over `csv`, then `tail` (with padding between them past the streaming size when `streamed`: rows of the
 * header's count of cells, as csv-parse builds an error, stack and all, for each other row it lets through): its rows
 * by sku, stderr, and the line `tail` starts at.
 */
async function matched(
  name: string,
  csv: string,
  streamed: boolean,
  pad: (i: number) => string,
  tail = '',
  args: string[] = [],
) {
  const sandbox = await sandboxFor({ recordCount: 0 });
  sandbox.addRecords([GADGET]);
  const file = path.join(dir, `${name}-${streamed ? 'big' : 'small'}.csv`);
  const padded = streamed ? paddedToStream(csv, pad) : { text: csv, added: 0 };
  writeFileSync(file, padded.text + tail);
  expect(await largeEnoughToStream(file)).toBe(streamed);
  const run = await runMainAgainst(sandbox, ['match', '--catalog', file, '-f', 'jsonl', ...args]);
  await sandbox.close();
  expect(run.code, run.stderr).toBe(0);
  const rows = Object.fromEntries(jsonLines(run.stdout).map((r) => [r.sku, r]));
  return { rows, stderr: run.stderr, tailLine: csv.trimEnd().split('\n').length + padded.added };
}

const warning = (rows: string, cells: number) =>
  `warning: catalogue ${rows}: not the header's ${cells} cells (a comma in an unquoted value?); read as they fall, and their lot and date never exclude them: quote such values`;

describe('a shifted row whose extra or missing cells are empty', () => {
  it.each(WHOLE_OR_STREAMED)(
    "%s: one empty cell more, in a file with rows of the header's count (the last one): ragged, and counted",
    async (_, streamed) => {
      // S1 and S4 are "Gadget Pro, 2024" unquoted with an empty note: 7 cells, the last empty, the lot cell "2024".
      // S3 has a value past the header: ragged whatever the file's form. S2, the file's last row, has the header's 6
      // cells: only then is it known that the rows do not all end with a delimiter.
      const csv = [
        'sku,ean,brand,name,lot,note',
        `S1,${EAN},Acmeco,Gadget Pro, 2024,L555,`,
        `S3,${EAN},Acmeco,Gadget Pro, 2024,L555,x`,
        `S4,${EAN},Acmeco,Gadget Pro, 2024,L555,`,
      ].join('\n');
      const tail = `S2,${EAN},Acmeco,Gadget Pro 2024,L999,\n`;
      const pad = (i: number) => `F${i},,,Qwzt vrk ${i},,`;
      const { rows, stderr, tailLine } = await matched('uneven', `${csv}\n`, streamed, pad, tail);
      expect(rows.S1).toMatchObject({ level: 'match', scope: 'unknown', lot: '2024', note: 'L555' });
      expect(rows.S1?.scope_evidence).toContain('the catalogue row has 7 cells where its header has 6');
      expect(rows.S3).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(rows.S4).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(rows.S2).toMatchObject({ level: 'excluded', scope: 'out-of-scope', catalog_line: tailLine });
      expect(stderr).toContain(warning('rows 1, 2, 3', 6));
    },
  );

  it.each(WHOLE_OR_STREAMED)(
    '%s: the header ends with blank columns, the row leaves one out and fills one: ragged',
    async (_, streamed) => {
      // Six cells against a header of seven whose last two are blank: one short, yet "L555" stands in a blank column.
      const csv = [
        'sku,ean,brand,name,lot,,',
        `S1,${EAN},Acmeco,Gadget Pro, 2024,L555`,
        `S2,${EAN},Acmeco,Gadget Pro,L999,,`,
      ];
      const pad = (i: number) => `F${i},,,Qwzt vrk ${i},,,`;
      const { rows, stderr } = await matched('blank-columns', `${csv.join('\n')}\n`, streamed, pad);
      expect(rows.S1).toMatchObject({ level: 'match', scope: 'unknown', lot: '2024' });
      expect(rows.S1?.scope_evidence).toContain('the catalogue row has 6 cells where its header has 5');
      // S2 keeps the blank columns as empty cells: it may be shifted as well, so its lot proves nothing either.
      expect(rows.S2).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(stderr).toContain(warning('row 1', 5));
    },
  );

  it.each(WHOLE_OR_STREAMED)(
    "%s: the header ends with a blank column, the shifted row has the header's count: ragged",
    async (_, streamed) => {
      const csv = [
        'sku,ean,brand,name,lot,',
        `S1,${EAN},Acmeco,Gadget Pro, 2024,L555`,
        `S2,${EAN},Acmeco,Gadget Pro,L999,`,
      ];
      const pad = (i: number) => `F${i},,,Qwzt vrk ${i},,`;
      const { rows, stderr } = await matched('blank-column', `${csv.join('\n')}\n`, streamed, pad);
      expect(rows.S1).toMatchObject({ level: 'match', scope: 'unknown', lot: '2024' });
      expect(rows.S1?.scope_evidence).toContain('the catalogue row has 6 cells where its header has 5');
      expect(rows.S2).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(stderr).toContain(warning('row 1', 5));
    },
  );
});

describe('a blank-named column that --map reads', () => {
  it.each(WHOLE_OR_STREAMED)(
    '%s: is a named one: rows up to it line up; a value past it is shifted',
    async (_, streamed) => {
      const csv = ['sku,ean,brand,name,', `S1,${EAN},Acmeco,Gadget Pro,L999`, `S2,${EAN},Acmeco,Gadget Pro, 2024,L555`];
      const pad = (i: number) => `F${i},,,Qwzt vrk ${i},`;
      const { rows, stderr } = await matched('mapped-blank', `${csv.join('\n')}\n`, streamed, pad, '', [
        '--map',
        'lot=column 5',
      ]);
      expect(rows.S1).toMatchObject({ level: 'excluded', scope: 'out-of-scope' });
      expect(rows.S2).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(rows.S2?.scope_evidence).toContain('the catalogue row has 6 cells where its header has 5');
      expect(stderr).toContain(warning('row 2', 5));
      expect(stderr).not.toContain('row 1');
    },
  );
});

describe('an export that ends every row the same way', () => {
  it.each(WHOLE_OR_STREAMED)(
    '%s: every row ends with a delimiter the header lacks: no warning, yet never excluded (a shifted row looks the same)',
    async (_, streamed) => {
      const csv = ['sku,ean,brand,name,lot', `S1,${EAN},Acmeco,Gadget Pro,L999,`, `S2,${EAN},Acmeco,Gadget Pro,L555,`];
      // Long rows, few of them: each is one cell over the header, which csv-parse is slow to let through.
      const pad = (i: number) => `F${i}${'x'.repeat(400)},,,Qwzt vrk ${i},,`;
      const { rows, stderr } = await matched('trailing', `${csv.join('\n')}\n`, streamed, pad);
      expect(rows.S1).toMatchObject({ level: 'match', scope: 'unknown' });
      expect(rows.S1?.scope_evidence).toContain('the catalogue row has 6 cells where its header has 5');
      expect(rows.S2).toMatchObject({ level: 'match', scope: 'in-scope' });
      expect(stderr).not.toContain('warning');
    },
  );
});

describe('a semicolon or tab CSV after blank lines', () => {
  it.each([
    ['semicolon, held whole', ';', '\n', false],
    ['semicolon, streamed', ';', '\n', true],
    ['tab, CRLF, held whole', '\t', '\r\n', false],
    ['tab, CRLF, streamed', '\t', '\r\n', true],
  ])('%s: its header is the first line with text, its delimiter read there', async (_, d, nl, streamed) => {
    const lines = [
      '',
      // Lines of white space or bare delimiters are no header either (csv-parse skips only empty lines).
      ` ${d} `,
      d.repeat(4),
      '',
      ['sku', 'ean', 'brand', 'name', 'lot'].join(d),
      ['S1', EAN, 'Acmeco', 'Gadget Pro', 'L999'].join(d),
    ];
    // The padding's rows end as the file's do (paddedToStream ends each with "\n").
    const pad = (i: number) => [`F${i}`, '', '', `Qwzt vrk ${i}`, ''].join(d) + nl.slice(0, -1);
    const { rows, stderr } = await matched(`blank-lines-${streamed}`, `${lines.join(nl)}${nl}`, streamed, pad);
    expect(rows.S1).toMatchObject({ level: 'excluded', scope: 'out-of-scope', name: 'Gadget Pro', lot: 'L999' });
    expect(stderr).not.toContain('warning');
    expect(stderr).not.toContain('error');
  });
});
