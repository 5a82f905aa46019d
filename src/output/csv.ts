// CSV renderer: RFC 4180 quoting by csv-stringify, one batch at a time, written with backpressure; header once, formula guard.
//
// Contract:
// - Columns: the `existingHeader` of a file being continued when given; else `columns` when given
//   (unknown names give empty cells); otherwise `csvColumns` followed by any other field of the first
//   non-empty batch, in first-seen order (without `csvColumns`: the first batch's fields). The columns
//   are then fixed, so a field that first appears later is left out rather than shifting every row
//   under a header already written; `onDroppedFields` hears of each such field once.
// - Header: the column names, once, before the first row (header:false omits it). A run with no
//   records still writes the header when the columns are known up front (`columns` or `csvColumns`),
//   so an empty export is a valid CSV file; otherwise it writes nothing at all (not even the BOM).
// - Cells: see csvCell in cells.ts. Fields containing a comma, quote, CR or LF are quoted, quotes doubled
//   (a lone CR too: csv-stringify would leave it bare, and readers split the row there).
// - Line ends are "\n", not RFC 4180's CRLF: spreadsheets, pandas, csvkit, DuckDB and Python's csv all
//   read LF, while line-oriented tools (wc -l, awk, cut) would keep a stray "\r" in the last field with
//   CRLF. A CR or LF inside a field is kept as is, inside quotes. `lineEnd: '\r\n'` (rows added to a
//   CRLF file) follows that file instead.
// - toTerminal: ESC, BEL, C1 and the other controls a terminal acts on are shown as `\xNN` (tab and line
//   ends stay); files and pipes get the exact bytes.
// - bom: EF BB BF once, before the header (for Excel); never when appending (the caller passes false).
import { writeChunk } from './backpressure.js';
import { csvCell, guardFormula, unguardFormula } from './cells.js';
import { escapeTerminalControls } from './control-escapes.js';
import type { Renderer, RenderOptions } from './render-contract.js';

type Stringify = typeof import('csv-stringify/sync')['stringify'];
let loading: Promise<Stringify> | undefined;
const loadStringify = () => (loading ??= import('csv-stringify/sync').then((m) => m.stringify));

/** RFC 4180 quoting (comma, quote, LF) plus a lone CR, which some readers would take for a line end. */
const OPTIONS = { record_delimiter: 'unix', quoted_match: /\r/ } as const;
const BOM = '\uFEFF';

function resolveColumns(opts: RenderOptions, firstBatch: readonly Record<string, unknown>[]): string[] {
  if (opts.existingHeader) {
    const guarded = opts.formulaGuard ?? true;
    return opts.existingHeader.map((cell) => (guarded ? unguardFormula(cell) : cell));
  }
  if (opts.columns) return [...opts.columns];
  const columns = [...(opts.csvColumns ?? [])];
  const seen = new Set(columns);
  for (const record of firstBatch) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return columns;
}

export class CsvRenderer implements Renderer {
  readonly #opts: RenderOptions;
  readonly #guard: boolean;
  #columns: string[] | undefined;
  /** Whether the BOM and header (when wanted) are out. */
  #started = false;
  #count = 0;
  #ended = false;
  /** Columns and fields already reported as dropped; undefined when nobody listens or --columns chose. */
  #known: Set<string> | undefined;

  readonly #options: typeof OPTIONS | { record_delimiter: 'windows'; quoted_match: RegExp };

  constructor(opts: RenderOptions) {
    this.#opts = opts;
    this.#guard = opts.formulaGuard ?? true;
    this.#options = opts.lineEnd === '\r\n' ? { ...OPTIONS, record_delimiter: 'windows' } : OPTIONS;
  }

  /** A file being continued has its header already. */
  get #writesHeader(): boolean {
    return (this.#opts.header ?? true) && this.#opts.existingHeader === undefined;
  }

  get count(): number {
    return this.#count;
  }

  /**
   * Each batch becomes text at once and is handed to `out` with backpressure, like json and jsonl: a
   * record counts as written only once its row has been handed over.
   */
  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    if (this.#ended) throw new Error('write() after end()');
    if (records.length === 0) return;
    this.#columns ??= resolveColumns(this.#opts, records);
    const columns = this.#columns;
    this.#reportDropped(columns, records);
    const stringify = await loadStringify();
    const rows = records.map((record) =>
      columns.map((c) => csvCell(Object.hasOwn(record, c) ? record[c] : undefined, this.#guard)),
    );
    await writeChunk(this.#opts.out, this.#forOut(this.#preamble(stringify, columns) + stringify(rows, this.#options)));
    this.#count += records.length;
  }

  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#started) return;
    // No records: a header alone still makes a valid file, when the columns are known up front.
    const knownColumns = this.#opts.columns !== undefined || this.#opts.csvColumns !== undefined;
    if (!this.#writesHeader || !knownColumns) return;
    this.#columns = resolveColumns(this.#opts, []);
    await writeChunk(this.#opts.out, this.#forOut(this.#preamble(await loadStringify(), this.#columns)));
  }

  /** On a terminal, controls escaped; into a file or pipe, the exact bytes. */
  #forOut(text: string): string {
    return this.#opts.toTerminal ? escapeTerminalControls(text) : text;
  }

  /** The BOM and the header row, the first time only. */
  #preamble(stringify: Stringify, columns: string[]): string {
    if (this.#started) return '';
    this.#started = true;
    const bom = this.#opts.bom ? BOM : '';
    // Field names come from the server too, so the header gets the same guard as the cells.
    const header = this.#writesHeader
      ? stringify([columns.map((c) => (this.#guard ? guardFormula(c) : c))], this.#options)
      : '';
    return bom + header;
  }

  #reportDropped(columns: string[], records: readonly Record<string, unknown>[]): void {
    const { onDroppedFields, columns: chosen, existingHeader } = this.#opts;
    if (!onDroppedFields || (chosen && !existingHeader)) return;
    this.#known ??= new Set(columns);
    const known = this.#known;
    // With --columns only the fields asked for can be missing from the file's header, not every other one.
    const fields = chosen ?? records.flatMap((record) => Object.keys(record));
    const dropped: string[] = [];
    for (const key of fields) {
      if (!known.has(key)) {
        known.add(key);
        dropped.push(key);
      }
    }
    if (dropped.length > 0) onDroppedFields(dropped);
  }
}
