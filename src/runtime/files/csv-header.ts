// Reads the header of a csv file being continued (appended to or resumed), so new rows follow its columns and line ends, and refuses one they cannot follow.
import { promises as fs } from 'node:fs';
import { UsageError } from '../cli-errors.js';
import { writing } from './write-errors.js';

/** More than any header this tool writes; a longer first record is not a header. */
const MAX_HEADER_BYTES = 1024 * 1024;

export interface CsvHead {
  /** The cells of the first record (a BOM and quoting handled). */
  header: string[];
  /** How the file ends its lines, judged by its first line: new rows follow it. */
  lineEnd: '\n' | '\r\n';
}

/** The first record of `file` and its line end; undefined for an empty file. */
export async function readCsvHead(file: string, shown = file): Promise<CsvHead | undefined> {
  // A file appended to that this user may not read is as good as one it may not write (exit 10).
  const handle = await writing(file, () => fs.open(file, 'r'));
  let text: string;
  try {
    // Unzeroed: only the bytes read are looked at.
    const buffer = Buffer.allocUnsafe(MAX_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  if (text === '' || text === '\uFEFF') return undefined;
  const { parse } = await import('csv-parse/sync');
  try {
    const [header] = parse(text, { to: 1, bom: true }) as string[][];
    if (header && header.length > 0) return { header, lineEnd: firstLineEnd(text) };
  } catch {
    // not csv: refused below
  }
  throw new UsageError(
    `cannot add csv rows to ${shown}: its first line is not a csv header`,
    'write csv to a new file, or pick the format of that file with -f',
  );
}

/** CRLF when the first line break outside quotes follows a CR (a file saved by Excel on Windows). */
function firstLineEnd(text: string): '\n' | '\r\n' {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '\n' && !quoted) return text[i - 1] === '\r' ? '\r\n' : '\n';
  }
  return '\n';
}

export interface HeaderNeeds {
  /** The columns the records will have, when known before the first page (the recall feed, or --columns). */
  columns: readonly string[] | undefined;
  /** Whether the rows must carry the id: without it nobody can tell which recall a row is. */
  id: boolean;
}

const shown = (header: readonly string[]) => {
  const text = header.join(',').replace(/[\p{Cc}\p{Cf}]/gu, '?');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** Why the header went wrong, when it can be told: another delimiter, or other letter case. */
function headerHint(header: readonly string[], columns: readonly string[] | undefined): string {
  const joined = header.join(',');
  for (const [delimiter, what] of [
    [';', '`;`-delimited, as a French or German Excel saves csv'],
    ['\t', 'tab-delimited'],
    ['|', '`|`-delimited'],
  ] as const) {
    if (header.length === 1 && joined.includes(delimiter)) {
      return `it looks ${what}: re-save it with commas (or move it away), then run again`;
    }
  }
  if (columns) {
    const lower = new Set(columns.map((c) => c.toLowerCase()));
    const caseOnly = header.filter((h) => !columns.includes(h) && lower.has(h.trim().toLowerCase()));
    if (caseOnly.length > 0) {
      return `its column names differ from the records' only in case (${caseOnly.slice(0, 3).join(', ')}): rename them in lower case, or move the file away`;
    }
  }
  return 'append to a csv file this tool wrote (with the same --columns), or write to a new file';
}

/**
 * Refuses (exit 2, before any request) a header new rows cannot follow: one that shares no column
 * with the records (every row would be blank) or, when the rows must carry it, lacks `id`. `file`
 * names it in the message; `columns` undefined (a custom feed's first page not seen yet) checks the id only.
 */
export function checkHeaderFits(file: string, header: readonly string[], needs: HeaderNeeds): void {
  const { columns } = needs;
  const fail = (what: string) =>
    new UsageError(`cannot append to ${file}: its header (${shown(header)}) ${what}`, headerHint(header, columns));
  if (columns && !header.some((h) => columns.includes(h))) throw fail('shares no column with the records');
  if (needs.id && !header.includes('id')) throw fail('has no id column');
}
