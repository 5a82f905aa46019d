// Table renderer for people: rows at fixed column widths, streamed batch by batch as one table.
//
// Widths are decided once, from the header and the first non-empty batch, and reused for every later
// batch, so a watched feed lines up as one table. Short columns (ids, dates, severities: no spaces, at
// most 32 columns) keep their natural width when space runs short; free-text columns share the rest.
// Cells are cut to their widths here (text-width.ts, linear in the text); cli-table3 then lays the rows
// out borderless (cli-table.ts), measuring with the same string-width, so cutting and padding agree. No
// borders: columns are separated by two spaces, and a rule of "─" under the header; trailing spaces are
// trimmed. chalk colours risk_severity, at the level the caller decided (Terminal.colorLevel).
//
// Too narrow for a table: every column needs at least MIN_COLUMN terminal columns (or its natural width,
// when smaller) plus the separators; below that, a table would be all `x…` cells, so each record is shown
// as a block of `field: value` lines instead (record-blocks.ts). With the six default feed columns the
// table needs 58 columns. The choice is made once, with the widths. cli-table3 and chalk are loaded only
// when a table (or colour) is drawn: a jsonl run never pays for them.
//
// The API's times (published_at, updated_at) are UTC without an offset: their header says so,
// `published_at (UTC)` (as stats heads `day (published, UTC)`), and their values stay as sent, so a
// value that carries its own offset shows it. The header is no wider than the values it heads.
import type { Writable } from 'node:stream';
import { writeChunk } from './backpressure.js';
import type { ColorLevel, Renderer, RenderOptions } from './render-contract.js';

const SEPARATOR = '  ';
const FIXED_MAX = 32;
/** Below this many terminal columns per column (or its natural width, when smaller) records become blocks. */
export const MIN_COLUMN = 8;
/** Free-text widths worth keeping short columns' full headers for; below it headers are cut first. */
const COMFORT_FLEX = 12;
const MIN_FLEX = 8;
const NATURAL_CAP = 500;

/**
 * Gives each column at most what it wants and at most an even share of `budget`, smallest wants first,
 * so the leftover of short columns goes to the long ones.
 */
export function waterFill(wants: readonly number[], budget: number): number[] {
  const widths = wants.map(() => 0);
  const order = wants.map((_, i) => i).sort((a, b) => wants[a]! - wants[b]!);
  let remaining = budget;
  order.forEach((index, k) => {
    const share = Math.floor(remaining / (order.length - k));
    const width = Math.max(1, Math.min(wants[index]!, share));
    widths[index] = width;
    remaining -= width;
  });
  return widths;
}

export interface ColumnWant {
  /** Width of the header and the widest cell of the first batch. */
  natural: number;
  /** Width of the header alone: a column is never narrower (0 without a header row). */
  header?: number;
  /** Width of the widest cell alone (a short column may cut its header before its values). */
  content: number;
  /** Free text, which may be cut; other columns are cut only when nothing else helps. */
  flex: boolean;
}

/** The narrowest a column may be: MIN_COLUMN (or its natural width, when smaller), and never below its header. */
function leastWidth(c: ColumnWant): number {
  return Math.max(c.header ?? 0, Math.min(Math.max(1, c.natural), MIN_COLUMN));
}

/** Whether every column can get at least MIN_COLUMN terminal columns (or its natural width) within `total`. */
export function tableFits(columns: readonly ColumnWant[], total: number): boolean {
  const least = columns.reduce((sum, c) => sum + leastWidth(c), 0);
  return least + SEPARATOR.length * (columns.length - 1) <= total;
}

/**
 * Column widths (without separators) that fit `total`, trying in turn: every natural width; short
 * columns whole and free text sharing the rest (at least COMFORT_FLEX each); short columns cut to
 * their values (header cut) and free text sharing the rest (at least MIN_FLEX each); at last an even
 * share for all. For columns that pass tableFits.
 */
export function fitWidths(columns: readonly ColumnWant[], total: number): number[] {
  const n = columns.length;
  const cols = columns.map((c) => ({ ...c, natural: Math.max(1, c.natural), content: Math.max(1, c.content) }));
  const header = (c: ColumnWant) => c.header ?? 0;
  const budget = Math.max(1, total - SEPARATOR.length * (n - 1));
  const natural = cols.map((c) => c.natural);
  if (natural.reduce((a, b) => a + b, 0) <= budget) return natural;
  const flexIndexes = cols.map((_, i) => i).filter((i) => cols[i]!.flex);
  const attempts = [
    { fixed: (c: ColumnWant) => c.natural, minFlex: COMFORT_FLEX },
    { fixed: (c: ColumnWant) => Math.max(header(c), Math.min(c.natural, c.content)), minFlex: MIN_FLEX },
  ];
  for (const { fixed, minFlex } of attempts) {
    const widths = cols.map((c) => (c.flex ? 0 : fixed(c)));
    const flexBudget = budget - widths.reduce((a, b) => a + b, 0);
    const flexFloor = flexIndexes.reduce((sum, i) => sum + Math.max(minFlex, header(cols[i]!)), 0);
    if (flexIndexes.length > 0 && flexBudget >= flexFloor) {
      const shares = raisedFill(
        flexIndexes.map((i) => natural[i]!),
        flexIndexes.map((i) => header(cols[i]!)),
        flexBudget,
      );
      flexIndexes.forEach((i, k) => {
        widths[i] = shares[k]!;
      });
      return widths;
    }
  }
  // Every column at least its least width (its header whole), what is left shared out towards the natural widths.
  return raisedFill(
    cols.map((c) => (c.flex ? c.natural : Math.max(header(c), Math.min(c.natural, c.content)))),
    cols.map(leastWidth),
    budget,
  );
}

/** waterFill over what each column wants beyond its floor: no column ends below its floor (when the floors fit). */
function raisedFill(wants: readonly number[], floors: readonly number[], budget: number): number[] {
  const floorSum = floors.reduce((a, b) => a + b, 0);
  if (floorSum > budget || floorSum === 0) return waterFill(wants, budget);
  const extra = waterFill(
    wants.map((w, i) => Math.max(0, w - floors[i]!)),
    budget - floorSum,
  );
  return floors.map((f, i) => f + (wants[i]! > f ? extra[i]! : 0));
}

/** Fields the API sends as UTC times without an offset (docs/formats.md), and a case's due time (UTC). */
const UTC_TIME_FIELDS: ReadonlySet<string> = new Set(['published_at', 'updated_at', 'due_at']);

/** What a table (and a record's view) calls a field for people: `published_at (UTC)` for the API's times. */
export function fieldHeading(field: string): string {
  return UTC_TIME_FIELDS.has(field) ? `${field} (UTC)` : field;
}

type Kit = typeof import('./table-kit.js');
let kitLoading: Promise<Kit> | undefined;
const loadKit = () => (kitLoading ??= import('./table-kit.js'));

type Paint = (text: string) => string;
type Palette = { high: Paint; medium: Paint; low: Paint };

/** chalk at an explicit level (it would read NO_COLOR-blind detection and argv itself otherwise). */
async function loadPalette(level: ColorLevel): Promise<Palette> {
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level });
  return { high: chalk.red, medium: chalk.yellow, low: chalk.green };
}

function severityColour(palette: Palette, value: unknown): Paint | undefined {
  switch (typeof value === 'string' ? value.trim().toLowerCase() : '') {
    case 'high':
    case 'serious':
      return palette.high;
    case 'medium':
      return palette.medium;
    case 'low':
      return palette.low;
    default:
      return undefined;
  }
}

/** A table with its column widths, or one block per record. */
type Layout = { kind: 'table'; widths: number[]; shown: number[] } | { kind: 'blocks' };

/** A free-text column narrower than this (or its natural width) is worth a dropped column elsewhere. */
const DROP_BELOW = 16;

export class TableRenderer implements Renderer {
  readonly #out: Writable;
  readonly #columns: string[];
  readonly #header: boolean;
  readonly #wholeHeaders: boolean;
  readonly #dropOrder: readonly string[];
  readonly #width: number;
  readonly #colorLevel: ColorLevel;
  #palette: Palette | undefined;
  #layout: Layout | undefined;
  #count = 0;

  constructor(opts: RenderOptions) {
    this.#out = opts.out;
    this.#columns = [...(opts.columns ?? opts.tableColumns)];
    this.#header = opts.header ?? true;
    this.#dropOrder = opts.columns === undefined ? (opts.dropOrder ?? []) : [];
    this.#wholeHeaders = (opts.wholeHeaders ?? false) || this.#dropOrder.length > 0;
    this.#width = Math.max(1, Math.floor(opts.width ?? 120));
    this.#colorLevel = opts.color ?? 0;
  }

  get count(): number {
    return this.#count;
  }

  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    if (records.length === 0 || this.#columns.length === 0) return;
    const kit = await loadKit();
    const cells = records.map((r) => this.#columns.map((c) => kit.tableCell(Object.hasOwn(r, c) ? r[c] : undefined)));
    const first = this.#layout === undefined;
    this.#layout ??= this.#decide(kit, cells);
    if (this.#colorLevel > 0) this.#palette ??= await loadPalette(this.#colorLevel);
    const layout = this.#layout;
    const lines =
      layout.kind === 'table'
        ? this.#tableLines(
            kit,
            records,
            cells.map((row) => layout.shown.map((i) => row[i]!)),
            layout.widths,
            layout.shown.map((i) => this.#columns[i]!),
            first,
          )
        : this.#blockLines(kit, records, cells);
    await writeChunk(this.#out, `${lines.join('\n')}\n`);
    this.#count += records.length;
  }

  async end(): Promise<void> {
    // Rows are complete as written; a table has no closing line.
  }

  #colour(record: Record<string, unknown>, column: string): Paint | undefined {
    return this.#palette && column === 'risk_severity' ? severityColour(this.#palette, record[column]) : undefined;
  }

  #tableLines(
    { drawRows, tableCell, truncateToWidth }: Kit,
    records: readonly Record<string, unknown>[],
    cells: string[][],
    widths: number[],
    columns: readonly string[],
    first: boolean,
  ): string[] {
    const rows = records.map((record, r) =>
      widths.map((w, i) => {
        const text = truncateToWidth(cells[r]![i]!, w);
        const colour = this.#colour(record, columns[i]!);
        return colour && text ? colour(text) : text;
      }),
    );
    const head =
      first && this.#header
        ? columns.map((c, i) => truncateToWidth(tableCell(fieldHeading(c)), widths[i]!))
        : undefined;
    return drawRows(rows, widths, head);
  }

  #blockLines(
    { recordBlock, tableCell }: Kit,
    records: readonly Record<string, unknown>[],
    cells: string[][],
  ): string[] {
    const lines: string[] = [];
    records.forEach((record, r) => {
      if (this.#count + r > 0) lines.push('');
      const fields = this.#columns.map((c, i) => ({
        label: tableCell(fieldHeading(c)),
        value: cells[r]![i]!,
        colour: this.#colour(record, c),
      }));
      lines.push(...recordBlock(fields, this.#width));
    });
    return lines;
  }

  #decide({ displayWidth, tableCell }: Kit, cells: string[][]): Layout {
    const wants = this.#columns.map((name, i): ColumnWant => {
      let content = 1;
      for (const row of cells) content = Math.max(content, Math.min(NATURAL_CAP, displayWidth(row[i]!)));
      const headerWidth = this.#header ? displayWidth(tableCell(fieldHeading(name))) : 0;
      const natural = Math.max(content, headerWidth);
      const header = this.#wholeHeaders ? headerWidth : 0;
      return { natural, content, header, flex: content > FIXED_MAX || cells.some((row) => row[i]!.includes(' ')) };
    });
    // Leave out the columns the caller ranks lowest, one by one, while the rest would be cramped: a narrow
    // terminal shows fewer columns, each readable.
    let shown = wants.map((_, i) => i);
    const droppable = this.#dropOrder.map((c) => this.#columns.indexOf(c)).filter((i) => i >= 0);
    for (;;) {
      const subset = shown.map((i) => wants[i]!);
      const fits = tableFits(subset, this.#width);
      const widths = fits ? fitWidths(subset, this.#width) : [];
      // Cramped: a header cut, a short column (an id, a date) cut at all, or free text below DROP_BELOW.
      const cramped =
        !fits ||
        subset.some(
          (w, k) =>
            widths[k]! < (w.header ?? 0) ||
            (w.flex ? widths[k]! < Math.min(w.natural, DROP_BELOW) : widths[k]! < w.content),
        );
      const next = droppable.find((i) => shown.includes(i));
      if (!cramped) return { kind: 'table', widths, shown };
      // Nothing left to leave out: the caller's own columns stay a table while they fit; the default ones, still
      // cramped with only the essential left, read better as blocks.
      if (next === undefined)
        return fits && droppable.length === 0 ? { kind: 'table', widths, shown } : { kind: 'blocks' };
      shown = shown.filter((i) => i !== next);
    }
  }
}
