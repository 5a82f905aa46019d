// Reads a product catalogue (CSV with a header, delimiter and BOM detected, or JSON lines) into rows.
import { promises as fs } from 'node:fs';
import { resolveColumns, type ColumnMap } from './catalogue-columns.js';

export interface CatalogueRow {
  /** 1 for the first data row. */
  line: number;
  /** Every column of the row, as text, in the catalogue's order. */
  values: Record<string, string>;
}

export interface Catalogue {
  headers: string[];
  columns: ColumnMap;
  rows: CatalogueRow[];
}

export class CatalogueReadError extends Error {
  override name = 'CatalogueReadError';
}

/** The delimiter that splits the header best, among comma, semicolon and tab (quotes respected). */
export function detectDelimiter(firstLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t']) {
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count++;
    }
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function readJsonl(file: string, content: string): { headers: string[]; rows: CatalogueRow[] } {
  const headers = new Set<string>();
  const rows: CatalogueRow[] = [];
  const lines = content.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new CatalogueReadError(`${file}, line ${i + 1}: not a JSON object`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CatalogueReadError(`${file}, line ${i + 1}: not a JSON object`);
    }
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) {
      headers.add(k);
      values[k] = text(v);
    }
    rows.push({ line: rows.length + 1, values });
  });
  return { headers: [...headers], rows };
}

async function readCsv(file: string, content: string): Promise<{ headers: string[]; rows: CatalogueRow[] }> {
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(content, {
      delimiter: detectDelimiter(content.split(/\r?\n/, 1)[0] ?? ''),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (err) {
    throw new CatalogueReadError(`${file} is not valid CSV: ${(err as Error).message}`);
  }
  const [headers = [], ...data] = records;
  const rows = data.map((record, i) => {
    const values: Record<string, string> = {};
    headers.forEach((h, k) => {
      values[h] = record[k] ?? '';
    });
    return { line: i + 1, values };
  });
  return { headers, rows };
}

/** JSON lines when the name says so or the file starts with `{`; CSV with a header row otherwise. */
export async function readCatalogue(file: string, mapped: ColumnMap = {}): Promise<Catalogue> {
  // Read once: every row is kept for the index anyway, so streaming would save nothing.
  let content: string;
  try {
    content = (await fs.readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? (err as Error).message);
    throw new CatalogueReadError(`cannot read the catalogue ${file}: ${why}`);
  }
  const jsonl = /\.(jsonl|ndjson)$/i.test(file) || content.trimStart().startsWith('{');
  const { headers, rows } = jsonl ? readJsonl(file, content) : await readCsv(file, content);
  if (headers.length === 0) throw new CatalogueReadError(`the catalogue ${file} is empty`);
  return { headers, columns: resolveColumns(headers, mapped), rows };
}
