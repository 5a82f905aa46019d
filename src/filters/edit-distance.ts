// How many single-character edits turn one text into another: what "did you mean" and a misspelt brand are judged by.

/** Edits (insert, delete, replace, swap two neighbours) between `a` and `b`: optimal string alignment. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * editDistance(a, b) when it is at most `limit`, else Infinity. Texts whose lengths differ by more than `limit` are
 * never compared (every edit changes the length by one at most), so a "did you mean" for a 100 KB name costs nothing
 * against short known names: editDistance's table would have a row per character.
 */
export function editDistanceWithin(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Number.POSITIVE_INFINITY;
  const distance = editDistance(a, b);
  return distance <= limit ? distance : Number.POSITIVE_INFINITY;
}
