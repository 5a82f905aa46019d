// Table renderer for people: cli-table3 rows at fixed column widths, streamed batch by batch as one table.
//
// Widths are decided once, from the header and the first non-empty batch, and reused for every later
// batch, so a watched feed lines up as one table. Short columns (ids, dates, severities: no spaces, at
// most 32 columns) keep their natural width when space runs short; free-text columns share the rest.
// Cells are truncated by our own display-width code (cli-table3's wrapping loses CJK characters), so
// cli-table3 only lays out and pads. No borders: columns are separated by two spaces, and a rule of
// "─" under the header; trailing spaces are trimmed.
import chalk from 'chalk';
import type { Writable } from 'node:stream';
import { writeChunk } from './backpressure.js';
import { tableCell } from './cells.js';
import type { Renderer, RenderOptions } from './renderer.js';
import { displayWidth, truncateToWidth } from './text-width.js';

const SEPARATOR = '  ';
const FIXED_MAX = 32;
/** Free-text widths worth keeping short columns' full headers for; below it headers are cut first. */
const COMFORT_FLEX = 12;
const MIN_FLEX = 8;
const NATURAL_CAP = 500;
const NO_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: SEPARATOR,
};

const importTable = () => import('cli-table3');
let loading: ReturnType<typeof importTable> | undefined;
const loadTable = () => (loading ??= importTable());

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
  /** Width of the widest cell alone (a short column may cut its header before its values). */
  content: number;
  /** Free text, which may be cut; other columns are cut only when nothing else helps. */
  flex: boolean;
}

/**
 * Column widths (without separators) that fit `total`, trying in turn: every natural width; short
 * columns whole and free text sharing the rest (at least COMFORT_FLEX each); short columns cut to
 * their values (header cut) and free text sharing the rest (at least MIN_FLEX each); at last an even
 * share for all. Fewer widths than columns
 * when not every column can get one character.
 */
export function fitWidths(columns: readonly ColumnWant[], total: number): number[] {
  let n = columns.length;
  while (n > 1 && n + SEPARATOR.length * (n - 1) > total) n--;
  const cols = columns.slice(0, n).map((c) => ({ ...c, natural: Math.max(1, c.natural), content: Math.max(1, c.content) }));
  const budget = Math.max(1, total - SEPARATOR.length * (n - 1));
  const natural = cols.map((c) => c.natural);
  if (natural.reduce((a, b) => a + b, 0) <= budget) return natural;
  const flexIndexes = cols.map((_, i) => i).filter((i) => cols[i]!.flex);
  const attempts = [
    { fixed: (c: ColumnWant) => c.natural, minFlex: COMFORT_FLEX },
    { fixed: (c: ColumnWant) => Math.min(c.natural, c.content), minFlex: MIN_FLEX },
  ];
  for (const { fixed, minFlex } of attempts) {
    const widths = cols.map((c) => (c.flex ? 0 : fixed(c)));
    const flexBudget = budget - widths.reduce((a, b) => a + b, 0);
    if (flexIndexes.length > 0 && flexBudget >= minFlex * flexIndexes.length) {
      const shares = waterFill(flexIndexes.map((i) => natural[i]!), flexBudget);
      flexIndexes.forEach((i, k) => (widths[i] = shares[k]!));
      return widths;
    }
  }
  return waterFill(cols.map((c) => (c.flex ? c.natural : Math.min(c.natural, c.content))), budget);
}

function severityColour(value: unknown): ((text: string) => string) | undefined {
  switch (typeof value === 'string' ? value.trim().toLowerCase() : '') {
    case 'high':
    case 'serious':
      return chalk.red;
    case 'medium':
      return chalk.yellow;
    case 'low':
      return chalk.green;
    default:
      return undefined;
  }
}

export class TableRenderer implements Renderer {
  readonly #out: Writable;
  readonly #columns: string[];
  readonly #header: boolean;
  readonly #width: number;
  readonly #color: boolean;
  #widths: number[] | undefined;
  #count = 0;

  constructor(opts: RenderOptions) {
    this.#out = opts.out;
    this.#columns = [...(opts.columns ?? opts.tableColumns)];
    this.#header = opts.header ?? true;
    this.#width = Math.max(1, Math.floor(opts.width ?? 120));
    this.#color = opts.color ?? false;
  }

  get count(): number {
    return this.#count;
  }

  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    if (records.length === 0 || this.#columns.length === 0) return;
    const { default: Table } = await loadTable();
    const cells = records.map((r) => this.#columns.map((c) => tableCell(Object.hasOwn(r, c) ? r[c] : undefined)));
    const first = this.#widths === undefined;
    const widths = (this.#widths ??= this.#layout(cells));
    const columns = this.#columns.slice(0, widths.length);
    const rows: string[][] = [];
    if (first && this.#header) {
      rows.push(columns.map((c, i) => truncateToWidth(tableCell(c), widths[i]!)));
      rows.push(widths.map((w) => '─'.repeat(w)));
    }
    records.forEach((record, r) => {
      rows.push(
        widths.map((w, i) => {
          const text = truncateToWidth(cells[r]![i]!, w);
          const colour = this.#color && columns[i] === 'risk_severity' ? severityColour(record[columns[i]]) : undefined;
          return colour && text ? colour(text) : text;
        }),
      );
    });
    const table = new Table({
      chars: NO_BORDERS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      colWidths: widths,
      wordWrap: false,
    });
    table.push(...rows);
    const text = table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
    await writeChunk(this.#out, `${text}\n`);
    this.#count += records.length;
  }

  async end(): Promise<void> {
    // Rows are complete as written; a table has no closing line.
  }

  #layout(cells: string[][]): number[] {
    const wants = this.#columns.map((name, i): ColumnWant => {
      let content = 1;
      for (const row of cells) content = Math.max(content, Math.min(NATURAL_CAP, displayWidth(row[i]!)));
      const natural = this.#header ? Math.max(content, displayWidth(tableCell(name))) : content;
      return { natural, content, flex: content > FIXED_MAX || cells.some((row) => row[i]!.includes(' ')) };
    });
    return fitWidths(wants, this.#width);
  }
}
