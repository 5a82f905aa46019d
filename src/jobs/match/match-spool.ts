// Match rows found in catalogue order, handed back in match's documented order; beyond a bound they wait on disk.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LEVEL_RANK, type Match, RANK } from '../../match/match-levels.js';

// Keyed by the catalogue's headers, which are data ("__proto__", "toString"): back without a prototype.
const parseRow = (line: string) => Object.assign(Object.create(null), JSON.parse(line)) as Record<string, unknown>;

/** Rows held in memory before the spool writes them to its file. */
const HELD_ROWS = 5_000;
const REASONS = Object.keys(RANK).length;
const LEVELS = Object.keys(LEVEL_RANK).length;

/**
 * jsonl, json and csv list each recall's rows together, matches, then possibles, then excluded, each tier by
 * catalogue line (docs/matching.md). The catalogue streams past in line order, so each (recall, level, reason)
 * bucket fills already sorted: the spool only keeps the buckets apart, and reads them back in key order.
 */
export class MatchSpool {
  /** Rows held as their JSON text: a row object held until a spill outlives the young generation and weighs more. */
  private readonly buckets = new Map<number, string[]>();
  private held = 0;
  private readonly segments = new Map<number, { at: number; bytes: number }[]>();
  private file: { dir: string; handle: fs.FileHandle; size: number } | undefined;

  constructor(private readonly limit = HELD_ROWS) {}

  async add(recallOrder: number, match: Match, row: Record<string, unknown>): Promise<void> {
    const key = (recallOrder * LEVELS + LEVEL_RANK[match.level]) * REASONS + RANK[match.reason];
    const text = JSON.stringify(row);
    const bucket = this.buckets.get(key);
    if (bucket) bucket.push(text);
    else this.buckets.set(key, [text]);
    if (++this.held >= this.limit) await this.spill();
  }

  private async spill(): Promise<void> {
    if (!this.file) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'recall-feed-match-'));
      this.file = { dir, handle: await fs.open(path.join(dir, 'rows.jsonl'), 'w+', 0o600), size: 0 };
    }
    const file = this.file;
    // One write for every bucket: a spill touches hundreds of them.
    const parts: Buffer[] = [];
    let at = file.size;
    for (const [key, rows] of this.buckets) {
      const text = Buffer.from(`${rows.join('\n')}\n`);
      parts.push(text);
      const list = this.segments.get(key) ?? [];
      list.push({ at, bytes: text.length });
      this.segments.set(key, list);
      at += text.length;
    }
    const all = Buffer.concat(parts);
    await file.handle.write(all, 0, all.length, file.size);
    file.size = at;
    this.buckets.clear();
    this.held = 0;
  }

  /** Every row in order, in batches; the file (if any) is removed after, or when the caller stops early. */
  async *rows(): AsyncGenerator<Record<string, unknown>[]> {
    try {
      const keys = [...new Set([...this.segments.keys(), ...this.buckets.keys()])].sort((a, b) => a - b);
      for (const key of keys) {
        for (const { at, bytes } of this.segments.get(key) ?? []) yield await this.read(at, bytes);
        const rows = this.buckets.get(key);
        if (rows) yield rows.map(parseRow);
      }
    } finally {
      await this.close();
    }
  }

  private async read(at: number, bytes: number): Promise<Record<string, unknown>[]> {
    const buffer = Buffer.alloc(bytes);
    await this.file?.handle.read(buffer, 0, bytes, at);
    return buffer
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map(parseRow);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    if (!file) return;
    await file.handle.close();
    await fs.rm(file.dir, { recursive: true, force: true });
  }
}
