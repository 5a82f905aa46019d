// The table's narrow form: one record per block of `field: value` lines, blocks separated by a blank line.
//
// A value that fits after its label stays on the label's line; a longer one goes on the lines below,
// indented by one space (so a 19-character timestamp still fits whole on a 20-column terminal), wrapped
// at spaces to the width, at most VALUE_LINES lines (the last cut with `…`). A label wider than the
// terminal is cut. Values are single-line, cleaned cells (see cells.ts).
import { displayWidth, truncateToWidth, wrapToWidth } from './text-width.js';

const INDENT = ' ';
const VALUE_LINES = 3;

export interface BlockField {
  label: string;
  /** The cleaned cell text. */
  value: string;
  /** Colours the value's text (risk_severity on a colour terminal). */
  colour?: (text: string) => string;
}

/** The lines of one record's block (without the blank separator line). */
export function recordBlock(fields: readonly BlockField[], width: number): string[] {
  const lines: string[] = [];
  for (const { label, value, colour } of fields) {
    const paint = (text: string) => (colour && text ? colour(text) : text);
    const text = value.trim();
    const head = `${label}:`;
    if (displayWidth(head) + 1 + displayWidth(text) <= width) {
      lines.push(text === '' ? head : `${head} ${paint(text)}`);
      continue;
    }
    lines.push(truncateToWidth(head, width));
    for (const line of wrapToWidth(text, width - INDENT.length, VALUE_LINES)) lines.push(INDENT + paint(line));
  }
  return lines;
}
