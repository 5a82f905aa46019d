// The renderer contract: what every format's renderer takes and promises (types only, so renderers and the factory share it).
//
// Machine formats are stable contracts:
// - jsonl: one compact JSON object per line, the record exactly as the API sent it (all fields, key order),
//          DEL and C1 controls escaped as \u00XX like JSON.stringify escapes C0 (control-escapes.ts).
// - json:  one JSON array, "[\n" + records (one compact object per line) joined by ",\n" + "\n]\n";
//          no records gives "[]\n". With resumeCount > 0 the caller has removed the trailing "\n]\n" of the
//          existing document; the renderer continues with ",\n" and closes it again.
// - csv:   see csv.ts (RFC 4180 quoting, "\n" line ends, header once, formula guard).
// The table is for people and may change.
import type { Writable } from 'node:stream';

/**
 * What a column holds, from the record schema, for formats with typed columns (Parquet): whole numbers,
 * instants (ISO 8601 text; without an offset, UTC), lists of strings, nested values (written as JSON
 * text), or text. Columns without a kind are text.
 */
export type ColumnKind = 'integer' | 'timestamp' | 'strings' | 'json' | 'string';

/** chalk's colour levels: none, 16 colours, 256, truecolor. */
export type ColorLevel = 0 | 1 | 2 | 3;

export interface RenderOptions {
  /** The name of a record format of the registry (format-registry.ts). */
  format: string;
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
  /**
   * csv: `out` is a terminal, which would act on control codes in records (retitle, clear, a C1 CSI):
   * they are shown as `\xNN` escapes. Default false: files and pipes get the exact bytes.
   */
  toTerminal?: boolean;
  /** csv: start with a UTF-8 byte order mark. Default false (and false when appending). */
  bom?: boolean;
  /**
   * csv: the header cells of the file this output continues (appending, resuming), as read back. They
   * decide the columns, over `columns` and `csvColumns`, so that every row matches the header already
   * there; no header is written.
   */
  existingHeader?: readonly string[];
  /** csv: the line end of the rows; default "\n", "\r\n" to follow a CRLF file being appended to. */
  lineEnd?: '\n' | '\r\n';
  /** csv: told once of each field that has no column and is left out (not with `columns`, a deliberate choice). */
  onDroppedFields?: (fields: string[]) => void;
  /** csv/table header row. Default true; false when appending to a non-empty file. */
  header?: boolean;
  /** table: total width in terminal columns. Default 120. */
  width?: number;
  /** table: never cut a header (a column is at least its header's width; too narrow for that gives blocks). */
  wholeHeaders?: boolean;
  /**
   * table: default columns a narrow terminal may leave out, the first to go first, as gh does: rather than cut every
   * column to a few characters, the ones a reader needs keep their room. Only for `tableColumns` (never the user's
   * `columns`); the headers of the columns shown are then never cut.
   */
  dropOrder?: readonly string[];
  /**
   * table: chalk's level for colouring risk_severity (red, yellow, green); 0 is none. The caller decides
   * (Terminal.colorLevel: --no-color, NO_COLOR, FORCE_COLOR, TERM, a terminal or not). Default 0.
   */
  color?: ColorLevel;
  /** parquet: each column's kind, from the record schema; columns not named are text. */
  columnKinds?: Readonly<Record<string, ColumnKind>>;
  /** json: records already in the document from an earlier run. */
  resumeCount?: number;
}

export interface Renderer {
  /** Renders one batch (a page) as soon as it arrives; resolves once the output accepted it. */
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  /**
   * Renders records given as JSON text (JSON.stringify's output, as the archive stores them), in the same
   * bytes `write` gives for the parsed records. Only jsonl and json, whose records are compact JSON, have it:
   * a caller holding the text need not parse it for them to serialize it again.
   */
  writeJson?(texts: readonly string[]): Promise<void>;
  /** Finishes the document; does not end `out`. Calling it twice writes nothing more. */
  end(): Promise<void>;
  /** Records written so far by this renderer. */
  readonly count: number;
}
