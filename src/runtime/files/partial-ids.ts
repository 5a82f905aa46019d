// Reads the ids a partial file already holds, so that a --resume never writes a recall twice.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { unguardFormula } from '../../output/cells.js';
import type { Format } from '../settings.js';
import { writing } from './write-errors.js';

/** An id as the state and the filters compare it: 123 and "123" are the same recall. */
const idText = (id: unknown): string | undefined =>
  (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : undefined;

/** jsonl, or json as written here: one compact record per line, after "[" and before "," or "]". */
async function jsonIds(file: string, ids: Set<string>): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    const line = raw.trim().replace(/^\[/, '').replace(/,$/, '');
    if (!line.startsWith('{')) continue;
    try {
      const id = idText((JSON.parse(line) as Record<string, unknown>).id);
      if (id !== undefined) ids.add(id);
    } catch {
      // a line cut short by a crash is past the state's byte count and cut off before writing
    }
  }
}

/** csv rows under `header` (the partial's own first row, or the header of the file it is appended to). */
async function csvIds(file: string, header: readonly string[], guarded: boolean, ids: Set<string>): Promise<boolean> {
  const column = header.indexOf('id');
  if (column < 0) return false;
  const { parse } = await import('csv-parse');
  const rows = createReadStream(file).pipe(parse({ bom: true, relax_column_count: true }));
  let first = true;
  for await (const row of rows as AsyncIterable<string[]>) {
    // The partial of a run that started the file begins with the header itself.
    const isHeader = first && row.length === header.length && row.every((cell, i) => cell === header[i]);
    first = false;
    if (isHeader) continue;
    const cell = row[column];
    const id = cell === undefined ? undefined : idText(guarded ? unguardFormula(cell) : cell);
    if (id !== undefined) ids.add(id);
  }
  return true;
}

export interface PartialFormat {
  format: Format;
  /** csv: the header the rows of the partial follow. */
  header?: readonly string[] | undefined;
  /** csv: whether cells were written with the formula guard. */
  formulaGuard: boolean;
}

/**
 * The ids of the records in `file` (the partial a resume continues); undefined when its format does not
 * carry them (a table, or csv without an id column): such a resume cannot filter and continues by cursor only.
 */
export async function idsInPartial(file: string, how: PartialFormat): Promise<Set<string> | undefined> {
  const ids = new Set<string>();
  if (how.format === 'jsonl' || how.format === 'json') {
    await writing(file, () => jsonIds(file, ids));
    return ids;
  }
  if (how.format === 'csv' && how.header) {
    const header = how.header;
    return (await writing(file, () => csvIds(file, header, how.formulaGuard, ids))) ? ids : undefined;
  }
  return undefined;
}
