// Match rows found in catalogue order, handed back in match's documented order; beyond a bound they wait on disk.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LEVEL_RANK, type Match, RANK } from '../../match/match-levels.js';

// Keyed by the catalogue's headers, which are data ("__proto__", "toString"): back without a prototype.
const parseRow = (line: string) => Object.assign(Object.create(null), JSON.parse(line)) as Record<string, unknown>;

/** Rows held in memory before the spool writes them to its file. */
const HELD_ROWS = 8_192;
/** Bytes of JSON text held before a spill (a row that alone is bigger is written on its own). */
const HELD_BYTES = 4 * 1024 * 1024;
const REASONS = Object.keys(RANK).length;
const LEVELS = Object.keys(LEVEL_RANK).length;

/**
 * jsonl, json and csv list each recall's rows together, matches, then possibles, then excluded, each tier by
 * catalogue line (docs/matching.md). The catalogue streams past in line order, so each (recall, level, reason)
 * bucket fills already sorted: the spool only keeps the buckets apart, and reads them back in key order.
 *
 * Rows wait as UTF-8 in two buffers allocated once and reused, not as strings: held strings outlive the young
 * generation, and a run with many matches filled the old one with them between full collections (its peak grew
 * with the matches, so with the catalogue).
 */
export class MatchSpool {
  private held = 0;
  private used = 0;
  private readonly keys: Float64Array;
  private readonly starts: Uint32Array;
  private readonly lengths: Uint32Array;
  private heldText: Buffer | undefined;
  /** A spill's rows in key order (written, then reused); at the end, the rows never written. */
  private sorted: Buffer | undefined;
  /** Per bucket, where its rows lie: [offset, bytes] pairs, in the file or (`inSorted`, last) in `sorted`. */
  private readonly segments = new Map<number, number[]>();
  private readonly inSorted = new Map<number, [number, number]>();
  private file: { dir: string; handle: fs.FileHandle; size: number } | undefined;

  constructor(
    private readonly limit = HELD_ROWS,
    private readonly bytes = HELD_BYTES,
  ) {
    this.keys = new Float64Array(limit);
    this.starts = new Uint32Array(limit);
    this.lengths = new Uint32Array(limit);
  }

  async add(recallOrder: number, match: Match, row: Record<string, unknown>): Promise<void> {
    const key = (recallOrder * LEVELS + LEVEL_RANK[match.level]) * REASONS + RANK[match.reason];
    const text = `${JSON.stringify(row)}\n`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the exact count only when the bound does not fit.
    const size = text.length * 3 <= this.bytes - this.used ? -1 : Buffer.byteLength(text);
    if (size > this.bytes - this.used) await this.spill();
    if (size > this.bytes) {
      const alone = Buffer.from(text);
      this.segmentAt(key, await this.write(alone, alone.length), alone.length);
      return;
    }
    const n = this.held++;
    this.keys[n] = key;
    this.starts[n] = this.used;
    this.lengths[n] = this.textBuffer().write(text, this.used);
    this.used += this.lengths[n] as number;
    if (this.held >= this.limit) await this.spill();
  }

  /** Allocated once, outside the heap. */
  private textBuffer(): Buffer {
    this.heldText ??= Buffer.allocUnsafeSlow(this.bytes);
    return this.heldText;
  }

  /** The held rows copied into `sorted` in key order (arrival order within a key); `at` each bucket's run. */
  private arrange(at: (key: number, offset: number, bytes: number) => void): number {
    const text = this.heldText;
    if (this.held === 0 || !text) return 0;
    this.sorted ??= Buffer.allocUnsafeSlow(this.bytes);
    const { keys, starts, lengths } = this;
    const order = Array.from({ length: this.held }, (_, i) => i).sort(
      (a, b) => (keys[a] as number) - (keys[b] as number) || a - b,
    );
    let end = 0;
    let from = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k] as number;
      const start = starts[i] as number;
      end += text.copy(this.sorted, end, start, start + (lengths[i] as number));
      const next = order[k + 1];
      if (next === undefined || keys[next] !== keys[i]) {
        at(keys[i] as number, from, end - from);
        from = end;
      }
    }
    this.held = 0;
    this.used = 0;
    return end;
  }

  private segmentAt(key: number, offset: number, bytes: number): void {
    const list = this.segments.get(key);
    if (list) list.push(offset, bytes);
    else this.segments.set(key, [offset, bytes]);
  }

  private async spill(): Promise<void> {
    if (this.held === 0) return;
    const base = (await this.open()).size;
    const end = this.arrange((key, offset, bytes) => this.segmentAt(key, base + offset, bytes));
    await this.write(this.sorted as Buffer, end);
  }

  private async open(): Promise<{ handle: fs.FileHandle; size: number }> {
    if (!this.file) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'recall-feed-match-'));
      this.file = { dir, handle: await fs.open(path.join(dir, 'rows.jsonl'), 'w+', 0o600), size: 0 };
    }
    return this.file;
  }

  /** Appends the buffer's first `bytes` to the file; where they start. */
  private async write(buffer: Buffer, bytes: number): Promise<number> {
    const file = await this.open();
    const at = file.size;
    for (let done = 0; done < bytes; ) {
      const { bytesWritten } = await file.handle.write(buffer, done, bytes - done, at + done);
      done += bytesWritten;
    }
    file.size = at + bytes;
    return at;
  }

  /** Every row in order, in batches; the file (if any) is removed after, or when the caller stops early. */
  async *rows(): AsyncGenerator<Record<string, unknown>[]> {
    try {
      // The rows never written stay in memory, sorted; the file's are read back through the buffer they came from.
      this.arrange((key, offset, bytes) => this.inSorted.set(key, [offset, bytes]));
      const keys = [...new Set([...this.segments.keys(), ...this.inSorted.keys()])].sort((a, b) => a - b);
      for (const key of keys) {
        const list = this.segments.get(key) ?? [];
        for (let k = 0; k < list.length; k += 2) yield await this.read(list[k] as number, list[k + 1] as number);
        const mem = this.inSorted.get(key);
        if (mem) yield lines((this.sorted as Buffer).toString('utf8', mem[0], mem[0] + mem[1]));
      }
    } finally {
      await this.close();
    }
  }

  private async read(at: number, bytes: number): Promise<Record<string, unknown>[]> {
    // A segment is one spill's bucket (at most `bytes`) or one row alone, bigger.
    const buffer = bytes <= this.bytes ? this.textBuffer() : Buffer.alloc(bytes);
    const handle = this.file?.handle;
    for (let done = 0; handle && done < bytes; ) {
      const { bytesRead } = await handle.read(buffer, done, bytes - done, at + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return lines(buffer.toString('utf8', 0, bytes));
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    if (!file) return;
    await file.handle.close();
    await fs.rm(file.dir, { recursive: true, force: true });
  }
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map(parseRow);
