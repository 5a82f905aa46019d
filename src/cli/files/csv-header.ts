// Reads the header of a csv file being continued (appended to or resumed), so new rows follow its columns.
import { promises as fs } from 'node:fs';
import { UsageError } from '../cli-errors.js';

/** More than any header this tool writes; a longer first record is not a header. */
const MAX_HEADER_BYTES = 1024 * 1024;

/** The cells of the first record of `file` (a BOM and quoting handled); undefined for an empty file. */
export async function readCsvHeader(file: string): Promise<string[] | undefined> {
  const handle = await fs.open(file, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(MAX_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  if (text === '' || text === '\uFEFF') return undefined;
  const { parse } = await import('csv-parse/sync');
  try {
    const [header] = parse(text, { to: 1, bom: true }) as string[][];
    if (header && header.length > 0) return header;
  } catch {
    // not csv: refused below
  }
  throw new UsageError(
    `cannot add csv rows to ${file}: its first line is not a csv header`,
    'write csv to a new file, or pick the format of that file with -f',
  );
}
