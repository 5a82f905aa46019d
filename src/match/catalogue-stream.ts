// Reads a catalogue file as a stream of row batches (CSV through csv-parse's stream, or JSON lines): memory flat in its size.
import type { ColumnMap } from './catalogue-columns.js';
import { createHash, type Hash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { csvRows } from './catalogue-csv-stream.js';
import { type RowSpans, spanChunks, spanLines } from './catalogue-spans.js';
import {
  type Catalogue,
  type CatalogueRow,
  CatalogueChangedError,
  CatalogueReadError,
  catalogueKind,
  cellText,
  decodeWindows1252,
  encodingOf,
  readError,
  rowValues,
  withoutUtf8Bom,
} from './catalogue.js';

/** What a pass over the file learns besides its rows: complete once the pass has ended. */
export interface CatalogueShape {
  headers: string[];
  repeated: Catalogue['repeated'];
  ragged?: Catalogue['ragged'];
  readAs?: 'windows-1252';
  sha256?: string;
  /** Set once the pass has looked at the file. */
  kind?: 'csv' | 'jsonl';
  /** Given: the columns mapped (--map), whose blank-named cells are no shifted ones (CsvShape). */
  mapped?: ColumnMap;
}

/** The UTF-8 decoder met a byte that is not UTF-8: the pass starts again as Windows-1252. */
class NotUtf8 extends Error {}

const CHUNK = 1 << 15;

/**
 * The file's text in chunks, decoded as its first bytes (or `readAs`) say; `hash` sees every byte. With `bytes`, UTF-8
 * comes as checked bytes, not text: csv-parse reads bytes, and a string would be encoded back for it.
 */
async function* textChunks(
  file: string,
  readAs: 'windows-1252' | undefined,
  hash?: Hash,
  bytes = false,
): AsyncGenerator<string | Buffer> {
  let decode: ((bytes: Buffer, end: boolean) => string | Buffer) | undefined;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>) {
      hash?.update(chunk);
      decode ??= decoderFor(file, chunk, readAs, bytes);
      yield decode(chunk, false);
    }
  } catch (err) {
    if (err instanceof CatalogueReadError || err instanceof NotUtf8) throw err;
    throw readError(file, err);
  }
  if (decode) yield decode(Buffer.alloc(0), true);
}

/** UTF-8 checked chunk by chunk, a character cut by the chunk's end carried to the next. */
function checkedUtf8(): (bytes: Buffer, end: boolean) => Buffer {
  let carry = Buffer.alloc(0);
  return (bytes, end) => {
    const whole = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
    let cut = whole.length;
    let i = whole.length - 1;
    while (i >= 0 && whole.length - i <= 3 && ((whole[i] as number) & 0xc0) === 0x80) i--;
    const lead = whole[i] ?? 0;
    if (!end && i >= 0 && lead >= 0xc0 && whole.length - i < (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2)) cut = i;
    const done = whole.subarray(0, cut);
    if (!isUtf8(done)) throw new NotUtf8();
    carry = Buffer.from(whole.subarray(cut));
    return done;
  };
}

/** As decodeCatalogue decides for a whole file, from its first bytes: UTF-16 by BOM or NUL, else UTF-8 or Windows-1252. */
function decoderFor(file: string, first: Buffer, readAs: 'windows-1252' | undefined, bytes: boolean) {
  if (readAs === 'windows-1252') {
    // A UTF-8 byte-order mark before a Windows-1252 byte: the mark is still no text.
    let atStart = true;
    return (bytes: Buffer) => {
      const text = decodeWindows1252(atStart ? withoutUtf8Bom(bytes) : bytes);
      atStart = false;
      return text;
    };
  }
  const label = encodingOf(file, first);
  if (label === 'utf-8' && bytes) return checkedUtf8();
  const decoder = new TextDecoder(label, { fatal: label === 'utf-8' });
  return (bytes: Buffer, end: boolean) => {
    try {
      return decoder.decode(bytes, { stream: !end });
    } catch {
      throw new NotUtf8();
    }
  };
}

/** Text chunks as lines; the last one without its newline too. */
async function* lines(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of chunks) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() as string;
    if (parts.length > 0) yield parts;
  }
  yield [rest];
}

async function* jsonlRows(file: string, chunks: AsyncIterable<string | Buffer>, shape: CatalogueShape) {
  const headers = new Set<string>();
  let physical = 0;
  let line = 0;
  for await (const batch of lines(chunks)) {
    const rows: CatalogueRow[] = [];
    for (const raw of batch) {
      physical++;
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (text.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CatalogueReadError(`${file}, line ${physical}: not a JSON object`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new CatalogueReadError(`${file}, line ${physical}: not a JSON object`);
      const values = rowValues();
      for (const [k, v] of Object.entries(parsed)) {
        headers.add(k);
        values[k] = cellText(v, `${file}, line ${physical}`);
      }
      rows.push({ line: ++line, values });
    }
    shape.headers = [...headers];
    if (rows.length > 0) yield rows;
  }
}

/**
 * One pass over the catalogue: its rows in batches, in file order; `shape` is filled as the file is read (headers
 * and repeated columns of a CSV from its first row, of JSON lines at the end; the sha256 at the end). A file that is
 * not UTF-8 is read again, whole, as Windows-1252 (`shape.readAs`), so the rows already handed out must be dropped:
 * `restart` is called first. `spans`: only these rows of a CSV read as UTF-8 (an earlier pass's spans of it).
 */
export async function* catalogueRows(
  file: string,
  shape: CatalogueShape,
  opts: { hash?: boolean; restart?: () => void; spans?: RowSpans } = {},
): AsyncGenerator<CatalogueRow[]> {
  shape.kind = catalogueKind(file, await textStart(file, shape.readAs));
  const jsonl = shape.kind === 'jsonl';
  const spans = opts.spans?.usable && !jsonl && shape.readAs === undefined ? opts.spans : undefined;
  for (;;) {
    const hash = opts.hash ? createHash('sha256') : undefined;
    if (spans) {
      try {
        yield* csvRows(file, spanChunks(file, spans, hash), shape, spanLines(file, spans));
      } catch (err) {
        // These bytes were whole rows of valid CSV in the earlier pass: they no longer are.
        if (!(err instanceof CatalogueReadError) || err instanceof CatalogueChangedError) throw err;
        throw new CatalogueChangedError(file);
      }
      if (hash) shape.sha256 = hash.digest('hex');
      return;
    }
    const chunks = textChunks(file, shape.readAs, hash, !jsonl);
    try {
      yield* jsonl ? jsonlRows(file, chunks, shape) : csvRows(file, chunks, shape);
    } catch (err) {
      if (!(err instanceof NotUtf8)) throw err;
      shape.readAs = 'windows-1252';
      opts.restart?.();
      continue;
    }
    if (hash) shape.sha256 = hash.digest('hex');
    if (shape.headers.length === 0) throw new CatalogueReadError(`the catalogue ${file} is empty`);
    return;
  }
}

/** The text's first characters after white space, as catalogueKind reads them. */
async function textStart(file: string, readAs: 'windows-1252' | undefined): Promise<string> {
  let seen = '';
  try {
    for await (const chunk of textChunks(file, readAs)) {
      seen = (seen + chunk).trimStart();
      if (seen.length >= 64) break;
    }
  } catch (err) {
    // Not UTF-8 further on: the start decides, read as Windows-1252 then.
    if (err instanceof NotUtf8) return textStart(file, 'windows-1252');
    throw err;
  }
  return seen.slice(0, 64);
}
