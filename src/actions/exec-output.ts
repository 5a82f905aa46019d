// What an --exec command printed, kept within bounds: the last lines up to a byte budget, each line cut short.
import { stripControls } from '../output/control-escapes.js';

export interface OutputBounds {
  /** Bytes of output kept per command: the last lines that fit. Default 64 KiB. */
  keepBytes?: number;
  /** Bytes kept of one line; the rest of it is counted, not kept. Default 4 KiB. */
  lineBytes?: number;
}

export const DEFAULT_KEEP_BYTES = 64 * 1024;
export const DEFAULT_LINE_BYTES = 4 * 1024;

const NEWLINE = 0x0a;

/**
 * Takes the command's stdout and stderr chunks as they come, so that a flood (`yes`) or one endless line
 * costs bounded memory; lines() gives what was kept, control characters removed, with a note for what was not.
 */
export class OutputTail {
  private readonly keepBytes: number;
  private readonly lineBytes: number;
  /** Kept lines, oldest first from `first` (a queue without shift()'s copying), and their size in bytes. */
  private kept: { text: string; size: number }[] = [];
  private first = 0;
  private keptBytes = 0;
  private dropped = 0;
  /** The line being read, per stream (stdout and stderr interleave by line). */
  private readonly partial = new Map<string, { bytes: Buffer[]; size: number; cut: number }>();

  constructor(bounds: OutputBounds = {}) {
    this.keepBytes = bounds.keepBytes ?? DEFAULT_KEEP_BYTES;
    this.lineBytes = bounds.lineBytes ?? DEFAULT_LINE_BYTES;
  }

  push(stream: string, chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      // The common case, a whole short line in this chunk, is decoded straight from it: a flood stays cheap.
      if (nl >= 0 && nl - start <= this.lineBytes && !this.partial.has(stream)) {
        this.keep(chunk.toString('utf8', start, nl), nl - start);
        start = nl + 1;
        continue;
      }
      const end = nl < 0 ? chunk.length : nl;
      this.append(stream, chunk.subarray(start, end));
      if (nl < 0) break;
      this.endLine(stream);
      start = nl + 1;
    }
  }

  /** The kept lines, with `… N earlier lines not kept` first when some were dropped. */
  lines(): string[] {
    for (const stream of [...this.partial.keys()]) this.endLine(stream);
    const note =
      this.dropped > 0 ? [`… ${this.dropped} earlier ${this.dropped === 1 ? 'line' : 'lines'} not kept`] : [];
    // Control characters go only from what is shown: a dropped line costs no regex.
    return [...note, ...this.kept.slice(this.first).map((l) => stripControls(l.text))];
  }

  private append(stream: string, bytes: Buffer): void {
    let line = this.partial.get(stream);
    if (line === undefined) {
      line = { bytes: [], size: 0, cut: 0 };
      this.partial.set(stream, line);
    }
    const room = Math.max(0, this.lineBytes - line.size);
    // Copied: the chunk's buffer may be reused by the stream.
    if (room > 0) line.bytes.push(Buffer.from(bytes.subarray(0, room)));
    line.size += Math.min(room, bytes.length);
    line.cut += Math.max(0, bytes.length - room);
  }

  private endLine(stream: string): void {
    const line = this.partial.get(stream);
    this.partial.delete(stream);
    if (line === undefined) return;
    // A multi-byte character cut at the bound decodes as U+FFFD.
    let text = Buffer.concat(line.bytes).toString('utf8');
    if (line.cut > 0) text += ` … (${line.cut} more bytes)`;
    this.keep(text, Buffer.byteLength(text));
  }

  /** Keeps a line of `size` bytes, dropping the oldest ones beyond the budget. */
  private keep(text: string, size: number): void {
    this.kept.push({ text, size });
    this.keptBytes += size;
    while (this.keptBytes > this.keepBytes && this.kept.length - this.first > 1) {
      this.keptBytes -= (this.kept[this.first] as { size: number }).size;
      this.first++;
      this.dropped++;
    }
    if (this.first > 1024 && this.first * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.first);
      this.first = 0;
    }
  }
}
