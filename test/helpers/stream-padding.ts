// A catalogue padded with rows no recall can touch, until it is big enough for match to stream it.
import { STREAM_FROM_BYTES } from '../../src/jobs/match/stream-match.js';

/**
 * `csv` (its own rows first, so their line numbers stay) followed by `row(0)`, `row(1)`… until the file passes
 * STREAM_FROM_BYTES; `added`: how many rows that took.
 */
export function paddedToStream(csv: string, row: (i: number) => string): { text: string; added: number } {
  const head = csv.endsWith('\n') ? csv : `${csv}\n`;
  const filler: string[] = [];
  for (let size = Buffer.byteLength(head); size < STREAM_FROM_BYTES + 4096; ) {
    const line = row(filler.length);
    filler.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return { text: `${head}${filler.join('\n')}\n`, added: filler.length };
}
