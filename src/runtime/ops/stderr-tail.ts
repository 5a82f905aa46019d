// The last lines a run wrote to stderr, for the monitor's ping body: kept as they pass, never a second copy of everything.
import type { OutStream } from '../context.js';
import { isJsonLog } from '../terminal/json-log.js';

const KEEP_LINES = 20;

export class StderrTail {
  private lines: string[] = [];
  private partial = '';

  /** Everything since the last take (a --watch poll's own lines), at most the last 20. */
  take(): string[] {
    const out = this.partial === '' ? this.lines : [...this.lines, this.partial];
    this.lines = [];
    this.partial = '';
    return out;
  }

  add(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') this.lines.push(line);
    if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
    if (this.partial.length > 4096) this.partial = this.partial.slice(-4096);
  }

  /**
   * A stderr that tells this tail what passes. A terminal is left as it is (the spinner works on the
   * stream itself; its frames are no log), and JSON logs are tapped where each record is written.
   */
  wrap(stderr: OutStream): OutStream {
    if (isJsonLog(stderr)) {
      stderr.tap = (line) => this.add(line);
      return stderr;
    }
    if (stderr.isTTY) return stderr;
    const tail = this;
    return {
      isTTY: false,
      columns: stderr.columns,
      write(chunk: unknown, ...rest: unknown[]): boolean {
        tail.add(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        return (stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest);
      },
    } as unknown as OutStream;
  }
}
