// The renderer contract (one per output format, fed page by page) and the factory that picks one.
//
// Machine formats are stable contracts:
// - jsonl: one compact JSON object per line, the record exactly as the API sent it (all fields, key order).
// - json:  one JSON array, "[\n" + records (one compact object per line) joined by ",\n" + "\n]\n";
//          no records gives "[]\n". With resumeCount > 0 the caller has removed the trailing "\n]\n" of the
//          existing document; the renderer continues with ",\n" and closes it again.
// - csv:   see csv.ts (RFC 4180 quoting, "\n" line ends, header once, formula guard).
// The table is for people and may change.
import type { Writable } from 'node:stream';
import { CsvRenderer } from './csv.js';
import type { Format } from './formats.js';
import { JsonRenderer } from './json.js';
import { JsonlRenderer } from './jsonl.js';
import { TableRenderer } from './table.js';

export { FORMATS, isFormat, type Format } from './formats.js';

export interface RenderOptions {
  format: Format;
  /** Written with backpressure; never ended by the renderer. */
  out: Writable;
  /** The user's --columns (table and csv); unknown names render as empty cells. */
  columns?: string[];
  /** Table columns when `columns` is absent. */
  tableColumns: string[];
  /**
   * Base csv column order (e.g. RECALL_FIELDS); fields of the first batch not listed are appended in
   * first-seen order. Undefined: the first batch's fields in first-seen order.
   */
  csvColumns?: readonly string[];
  /** csv: prefix cells starting with = + - @ tab CR with `'`. Default true. */
  formulaGuard?: boolean;
  /** csv: start with a UTF-8 byte order mark. Default false (and false when appending). */
  bom?: boolean;
  /**
   * csv: the header cells of the file this output continues (appending, resuming), as read back. They
   * decide the columns, over `columns` and `csvColumns`, so that every row matches the header already
   * there; no header is written.
   */
  existingHeader?: readonly string[];
  /** csv: told once of each field that has no column and is left out (not with `columns`, a deliberate choice). */
  onDroppedFields?: (fields: string[]) => void;
  /** csv/table header row. Default true; false when appending to a non-empty file. */
  header?: boolean;
  /** table: total width in terminal columns. Default 120. */
  width?: number;
  /** table: colour risk_severity (red, yellow, green); the caller decides from NO_COLOR, FORCE_COLOR and TERM. Default false. */
  color?: boolean;
  /** json: records already in the document from an earlier run. */
  resumeCount?: number;
}

export interface Renderer {
  /** Renders one batch (a page) as soon as it arrives; resolves once the output accepted it. */
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  /** Finishes the document; does not end `out`. Calling it twice writes nothing more. */
  end(): Promise<void>;
  /** Records written so far by this renderer. */
  readonly count: number;
}

export function createRenderer(opts: RenderOptions): Renderer {
  switch (opts.format) {
    case 'jsonl':
      return new JsonlRenderer(opts);
    case 'json':
      return new JsonRenderer(opts);
    case 'csv':
      return new CsvRenderer(opts);
    case 'table':
      return new TableRenderer(opts);
    default: {
      const unknown: never = opts.format;
      throw new TypeError(`unknown output format: ${String(unknown)}`);
    }
  }
}
