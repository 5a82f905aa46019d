// Seeded pseudo-random numbers (mulberry32) so generated data and fault sequences repeat for a given seed.

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** Up to `n` distinct items, in list order. */
  some<T>(items: readonly T[], min: number, max: number): T[] {
    const n = Math.min(items.length, this.int(min, max));
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((a, [, w]) => a + w, 0);
    let u = this.next() * total;
    for (const [v, w] of entries) {
      u -= w;
      if (u < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }
}

/** Mixes two numbers into a seed, so that each arrival or batch gets its own stable stream. */
export function mixSeed(a: number, b: number): number {
  let h = Math.imul(a ^ 0x85ebca6b, 0xc2b2ae35) ^ Math.imul(b + 0x27d4eb2f, 0x165667b1);
  h ^= h >>> 16;
  return h >>> 0;
}
