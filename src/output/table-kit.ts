// What the table renderer draws with, loaded by it on its first rows: string-width (whose module builds an
// Intl.Segmenter, ~13 ms) and cli-table3 stay out of csv, json and jsonl runs, which load the renderer factory too.
export { drawRows } from './cli-table.js';
export { recordBlock } from './record-blocks.js';
export { tableCell } from './terminal-cells.js';
export { displayWidth, truncateToWidth } from './text-width.js';
