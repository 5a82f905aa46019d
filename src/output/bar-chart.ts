// Horizontal bar charts for a terminal: one titled block per series, label, count and a bar in eighths of a column.
import { groupDigits } from './numbers.js';
import { terminalText } from './terminal-cells.js';
import { displayWidth, padToWidth, truncateToWidth } from './text-width.js';

export interface ChartRow {
  label: string;
  count: number;
}

export interface ChartSeries {
  title: string;
  rows: readonly ChartRow[];
  /** A line under the bars, e.g. how many rows were left out. */
  note?: string;
}

const PARTS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const INDENT = '  ';

/** A bar of `value / max` of `width` columns, to the eighth of a column; a non-zero value shows at least a sliver. */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || value <= 0 || width <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + PARTS[eighths % 8];
}

/** One series as lines that fit `width` columns (at least 20): label, count, bar. */
export function barChart(series: ChartSeries, width: number): string {
  const w = Math.max(20, width);
  const labels = series.rows.map((r) => terminalText(r.label));
  const counts = series.rows.map((r) => groupDigits(r.count));
  const countWidth = Math.max(1, ...counts.map((c) => c.length));
  const room = w - INDENT.length - countWidth - 2;
  const labelWidth = Math.max(1, Math.min(Math.max(1, ...labels.map(displayWidth)), Math.floor(room * 0.5)));
  const barWidth = Math.max(1, room - labelWidth);
  const max = Math.max(0, ...series.rows.map((r) => r.count));
  const lines = [truncateToWidth(terminalText(series.title), w)];
  series.rows.forEach((r, i) => {
    const label = truncateToWidth(labels[i] as string, labelWidth);
    const padded = padToWidth(label, labelWidth);
    lines.push(
      `${INDENT}${padded} ${(counts[i] as string).padStart(countWidth)} ${bar(r.count, max, barWidth)}`.trimEnd(),
    );
  });
  if (series.note) lines.push(truncateToWidth(`${INDENT}${terminalText(series.note)}`, w));
  return `${lines.join('\n')}\n`;
}
