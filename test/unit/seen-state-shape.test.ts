// The shape a --state file must have to be loaded: version 1, `seen` an object of ids and finite times in seconds,
// `pending` a list of deliveries. Anything else is refused naming its first bad entry, and the file is left alone.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeenState, StateFileError } from '../../src/jobs/watch/seen-state.js';
import { tempDir } from '../helpers/temp-dir.js';

const NOT_OURS = 'is not one this tool wrote (or it is damaged)';

async function refusal(body: string): Promise<{ file: string; err: unknown }> {
  const file = path.join(tempDir('rf-state-'), 'seen.json');
  writeFileSync(file, body);
  const err = await SeenState.load(file).catch((e: unknown) => e);
  expect(readFileSync(file, 'utf8')).toBe(body);
  return { file, err };
}

describe('SeenState.load refuses entries of the wrong type', () => {
  const cases: [string, string][] = [
    ['{"version":1,"seen":{"1":1767261600,"2":"1767261600"}}', '"seen" has "2": "1767261600", not a time in seconds'],
    ['{"version":1,"seen":{"1":null}}', '"seen" has "1": null, not a time in seconds'],
    ['{"version":1,"seen":{"1":true}}', '"seen" has "1": true, not a time in seconds'],
    ['{"version":1,"seen":{"1":{"at":1}}}', '"seen" has "1": {"at":1}, not a time in seconds'],
    ['{"version":1,"seen":{"1":1e999}}', '"seen" has "1": Infinity, not a time in seconds'],
    ['{"version":1,"seen":["1","2"]}', '"seen" is a list, not an object of ids and times'],
    ['{"version":1,"seen":null}', '"seen" is null, not an object of ids and times'],
    ['{"version":1,"seen":"1,2"}', '"seen" is a string, not an object of ids and times'],
    ['{"version":1}', '"seen" is missing, not an object of ids and times'],
    ['{"version":1,"seen":{},"pending":{}}', '"pending" is an object, not a list of deliveries'],
    ['{"version":1,"seen":{},"pending":[{"id":1}]}', '"pending" entry 1 is not a delivery: {"id":1}'],
  ];
  for (const [body, entry] of cases) {
    it(`${body}: ${entry}`, async () => {
      const { file, err } = await refusal(body);
      expect(err).toBeInstanceOf(StateFileError);
      expect((err as StateFileError).message).toBe(`the state file ${file} ${NOT_OURS}: ${entry}`);
      expect((err as StateFileError).hint).toMatch(/^move it away to start afresh/);
    });
  }

  it('a long id or value is cut short, and a line break in one stays escaped: the message is one line', async () => {
    const id = `a\n${'x'.repeat(60)}`;
    const { err } = await refusal(JSON.stringify({ version: 1, seen: { [id]: 'y'.repeat(60) } }));
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`: "seen" has "a\\n${'x'.repeat(35)}…: "${'y'.repeat(38)}…, not a time in seconds`);
  });

  it('a file that is not ours at all is refused without an entry named', async () => {
    for (const body of ['[]', '{"seen":{}}', '{"version":2,"seen":{}}', 'null', '1']) {
      const { file, err } = await refusal(body);
      expect((err as Error).message).toBe(`the state file ${file} ${NOT_OURS}`);
    }
  });

  it('loads a good file: every id, with its time', async () => {
    const file = path.join(tempDir('rf-state-'), 'seen.json');
    const pending = { id: '3', record: { id: 3 }, done: ['exec'], attempts: 1 };
    writeFileSync(file, JSON.stringify({ version: 1, seen: { '1': 1767261600, x: 0 }, pending: [pending] }));
    const s = await SeenState.load(file);
    expect([s.size, s.has(1), s.has('x'), s.has(2)]).toEqual([2, true, true, false]);
    expect(s.deliveries).toEqual([pending]);
  });
});

describe.skipIf(process.getuid?.() === 0)('a state file this user may not read', () => {
  it('is said in words with its real path and a --state hint (exit 2)', async () => {
    const file = path.join(tempDir('rf-state-'), 'seen.json');
    writeFileSync(file, '{"version":1,"seen":{}}');
    chmodSync(file, 0o200);
    const err = await SeenState.load(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateFileError);
    expect((err as StateFileError).message).toBe(`cannot read the state file ${file}: permission denied`);
    expect((err as StateFileError).hint).toBe(
      'give --state a file this user can read and write: the state is what keeps each recall from being written twice',
    );
  });
});
