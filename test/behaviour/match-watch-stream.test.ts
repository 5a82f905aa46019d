// `match --watch` over a catalogue big enough to stream (8 MiB and over): each poll reads the file past its new recalls
// and writes, acts on and opens cases for what the catalogue indexed whole would; a file replaced between polls is read
// as it is then, and one whose columns changed ends the watch.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { testArchive } from '../helpers/archive-engines.js';
import { receivingServer } from '../helpers/handler-server.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CATALOGUE, intoWindow, loadRecalls } from '../fixtures/real-notices/quality.mjs';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-watch-stream-', { scope: 'file' });
const ean = (value: string) => ({ standard_identifiers_and_barcodes: [{ type: 'EAN', value }] });

describe('match --watch on a catalogue that streams', () => {
  it("the real notices' first poll: the rows, the webhook's posts and the cases of the catalogue indexed whole", async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords(intoWindow(loadRecalls(), Date.now()));
    const big = path.join(dir, 'catalogue.csv');
    writeFileSync(
      big,
      paddedToStream(readFileSync(CATALOGUE, 'utf8').trimEnd(), (i) => `F${i},,,Qwzt vrk ${i},,,,`).text,
    );
    /** The first poll of a watch (the window's notices), then Ctrl-C: what it wrote, posted and opened. */
    const watchOnce = async (catalog: string, format = 'jsonl', acting = true) => {
      const receiver = await receivingServer();
      const db = (await testArchive('sqlite')).db;
      const stop = new AbortController();
      // The first pause follows the first poll, its actions delivered: the watch stops as Ctrl-C would.
      const clock = fakeClock(Date.now(), () => stop.abort(new InterruptedError('SIGINT')));
      const args = ['match', '--catalog', catalog, '--watch', '--hours', '24', '-f', format];
      const acts = acting ? ['--webhook', `${receiver.url}/hook`] : [];
      const r = await runMainAgainst(sandbox, [...args, '--open-cases', '--db', db, ...acts], {
        clock,
        signal: stop.signal,
      });
      await receiver.close();
      expect(r.code, r.stderr).toBe(130);
      const listed = await runMain(['cases', '--db', db, '--status', 'all', '-f', 'jsonl']);
      const cases = (jsonLines(listed.stdout) as Rec[])
        .map((c) => [c.catalog_key, c.recall_id, c.level, c.reason, c.product_name].join(' '))
        .sort();
      const posted = receiver.received.map((p) => p.body).sort();
      return { stdout: r.stdout, stderr: r.stderr, cases, posted };
    };
    const whole = await watchOnce(CATALOGUE);
    const streamed = await watchOnce(big);
    const rows = jsonLines(whole.stdout) as Rec[];
    expect(new Set(rows.map((r) => r.level))).toEqual(new Set(['match', 'possible', 'excluded']));
    expect(streamed.stdout).toBe(whole.stdout);
    const acted = rows.filter((r) => r.level !== 'excluded').length;
    expect(whole.posted.length).toBe(acted);
    expect(streamed.posted).toEqual(whole.posted);
    expect(whole.cases.length).toBeGreaterThan(10);
    expect(streamed.cases).toEqual(whole.cases);
    expect(streamed.stderr).toMatch(/^cases: [1-9][\d,]* opened · 0 pairs already had one$/m);
    // Without actions the rows go from the poll's spool to the output; a table is held, to be sorted.
    for (const format of ['jsonl', 'csv', 'table']) {
      const [a, b] = [await watchOnce(CATALOGUE, format, false), await watchOnce(big, format, false)];
      if (format === 'jsonl') expect(a.stdout).toBe(whole.stdout);
      else expect(a.stdout.split('\n').length).toBeGreaterThan(rows.length);
      expect(b.stdout).toBe(a.stdout);
      expect(b.cases).toEqual(whole.cases);
      expect(b.posted).toEqual([]);
    }
  });

  // Long rows, so that the file streams with fewer of them to read at each poll.
  const streams = (csv: string) => paddedToStream(csv, (i) => `F${i},,Qwzt vrk ${i} ${'z'.repeat(200)}`);
  const heldWhole = (csv: string) => ({ text: csv, added: 0 });
  it.each([
    ['streamed', streams],
    ['held whole', heldWhole],
  ])(
    'a catalogue %s, replaced between polls, is read as it is then; gone for a poll, that poll fails; other columns end the watch (exit 2)',
    async (_kind, pad) => {
      const sandbox = await sandboxFor({ recordCount: 0 });
      const catalog = path.join(dir, `replaced-${_kind.replace(' ', '-')}.csv`);
      const first = pad('sku,ean,name\nK-1,4006381333931,Pencil\n');
      writeFileSync(catalog, first.text);
      let out = '';
      let err = '';
      const added: { id: number }[] = [];
      let pauses = 0;
      const clock = fakeClock(Date.now(), () => {
        pauses++;
        // After poll 1 (an empty window): a recall of K-1's barcode.
        if (pauses === 1) added.push(...sandbox.addRecords([ean('4006381333931')]));
        // After poll 2: the catalogue is replaced (K-1 gone, K-9 with another barcode), and a recall of that barcode.
        if (pauses === 2) {
          writeFileSync(catalog, pad('sku,ean,name\nK-9,0036000291452,Razor\n').text);
          added.push(...sandbox.addRecords([ean('0036000291452')]));
        }
        // After poll 3: the file is gone (an export about to write it) when a recall comes: that poll fails.
        if (pauses === 3) {
          renameSync(catalog, `${catalog}.away`);
          added.push(...sandbox.addRecords([ean('0036000291452')]));
        }
        // After poll 4: the file is back; the poll after checks the recall the failed one did not remember.
        if (pauses === 4) renameSync(`${catalog}.away`, catalog);
        // After poll 5: a new column, and one more recall for the poll that then reads it.
        if (pauses === 5) {
          writeFileSync(catalog, pad('sku,ean,name,colour\nK-9,0036000291452,Razor,red\n').text);
          added.push(...sandbox.addRecords([ean('0036000291452')]));
        }
        if (pauses > 6) throw new Error(`the watch went on\nstderr: ${err}`);
      });
      const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '--watch', '-f', 'jsonl'], {
        clock,
        onOutput: (stream, text) => {
          if (stream === 'stdout') out += text;
          else err += text;
        },
      });
      expect(r.code, err).toBe(2);
      const [one, two, three] = added;
      expect(added.length).toBe(4);
      expect((jsonLines(out) as Rec[]).map((row) => [row.recall_id, row.sku, row.level, row.reason])).toEqual([
        [one!.id, 'K-1', 'match', 'barcode'],
        [two!.id, 'K-9', 'match', 'barcode'],
        [three!.id, 'K-9', 'match', 'barcode'],
      ]);
      expect(err).toMatch(
        new RegExp(
          `^recall-feed: poll failed: cannot read the catalogue ${catalog}: no such file; next poll in \\d+ s$`,
          'm',
        ),
      );
      const rows = first.added + 1;
      expect(err).toContain(
        `catalogue ${catalog} changed: ${rows.toLocaleString('en')} ${rows === 1 ? 'row' : 'rows'}\n`,
      );
      expect(err).toContain(`error: the catalogue ${catalog} has other columns than when the watch started`);
      expect(err).toContain('start the watch again to write its new columns');
    },
  );

  it("--open-cases, a catalogue held whole and replaced: the new file's key warnings are said, as at the start", async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    const catalog = path.join(dir, 'held-keys.csv');
    writeFileSync(catalog, 'sku,ean,name\nK-1,4006381333931,Pencil\n');
    const db = (await testArchive('sqlite')).db;
    let pauses = 0;
    const stop = new AbortController();
    // After poll 1: the file replaced by one with a keyless row and two rows sharing a sku, and a recall that makes the
    // next poll read it; Ctrl-C after poll 2.
    const clock = fakeClock(Date.now(), () => {
      if (++pauses === 1) {
        writeFileSync(
          catalog,
          'sku,ean,name\n,4006381333931,Pencil\nK-2,0036000291452,Razor\nK-2,0036000291452,Razor\n',
        );
        sandbox.addRecords([ean('4006381333931')]);
      } else stop.abort(new InterruptedError('SIGINT'));
    });
    const args = ['match', '--catalog', catalog, '--watch', '-f', 'jsonl', '--open-cases', '--db', db];
    const r = await runMainAgainst(sandbox, args, { clock, signal: stop.signal });
    expect(r.code, r.stderr).toBe(130);
    const lines = r.stderr.split('\n');
    const changed = lines.indexOf(`catalogue ${catalog} changed: 3 rows`);
    expect(changed, r.stderr).toBeGreaterThan(-1);
    const after = lines.slice(changed + 1);
    expect(after.filter((l) => l.startsWith('warning: 1 row'))).toEqual([
      'warning: 1 row has no sku: known by line number instead',
      'warning: 1 row shares a sku with an earlier row: they share its cases',
    ]);
    expect(lines.slice(0, changed).filter((l) => l.startsWith('warning:'))).toEqual([]);
  });

  it('--open-cases: a keyless row found again at a later poll is warned about once', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    const catalog = path.join(dir, 'keyless.csv');
    writeFileSync(catalog, streams('sku,ean,name\n,4006381333931,Pencil\n').text);
    const db = (await testArchive('sqlite')).db;
    let err = '';
    let pauses = 0;
    const stop = new AbortController();
    // A recall of the keyless row's barcode after polls 1 and 2; Ctrl-C after poll 3.
    const clock = fakeClock(Date.now(), () => {
      if (++pauses <= 2) sandbox.addRecords([ean('4006381333931')]);
      else stop.abort(new InterruptedError('SIGINT'));
    });
    const args = ['match', '--catalog', catalog, '--watch', '-f', 'jsonl', '--open-cases', '--db', db];
    const r = await runMainAgainst(sandbox, args, {
      clock,
      signal: stop.signal,
      onOutput: (stream, text) => {
        if (stream === 'stderr') err += text;
      },
    });
    expect(r.code, err).toBe(130);
    expect(jsonLines(r.stdout)).toHaveLength(2);
    expect(err.match(/^cases: 1 opened · 0 pairs already had one$/gm)).toHaveLength(2);
    const warning = 'warning: 1 row has no sku: known by line number instead, among the rows that found a recall';
    expect(err.split('\n').filter((line) => line === warning)).toHaveLength(1);
  });
});
