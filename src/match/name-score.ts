// How much two product names share, weighed by evidence: a word rare in the catalogue says more than a common one.

/**
 * Token weights from the catalogue's own frequencies (inverse document frequency, as Fellegi-Sunter and Splink weigh
 * agreement on a rare value): "kielbasa" in 1 row of 10,000 weighs far more than "chicken" in 900.
 */
export class NameWeights {
  /**
   * `factors`: what `match --learn` measured of each word on the user's closed cases (1 when it has not). `df` and
   * `rows`: counts made elsewhere (a streamed catalogue counts only the words it will weigh).
   */
  constructor(
    private readonly factors: Readonly<Record<string, number>> = {},
    private readonly df = new Map<string, number>(),
    private rows = 0,
  ) {}

  add(tokens: ReadonlySet<string>): void {
    if (tokens.size === 0) return;
    this.rows++;
    for (const t of tokens) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  /** log((N + 1) / (df + 0.5)): never 0, highest for a word the catalogue has once. */
  weight(token: string): number {
    const factor = Object.hasOwn(this.factors, token) ? (this.factors[token] as number) : 1;
    return Math.log((this.rows + 1) / ((this.df.get(token) ?? 0) + 0.5)) * factor;
  }

  /**
   * The share of the catalogue row's name weight that the notice's words cover. Asymmetric on purpose: a notice
   * describes a product at length ("12-oz. vacuum-packed packages containing … Polish Kielbasa Turkey Sausage"),
   * a catalogue in a few words, and every one of those should be found.
   */
  coverage(notice: ReadonlySet<string>, row: ReadonlySet<string>): { score: number; shared: string[] } {
    let total = 0;
    let covered = 0;
    const shared: string[] = [];
    for (const t of row) {
      const w = this.weight(t);
      total += w;
      if (notice.has(t)) {
        covered += w;
        shared.push(t);
      }
    }
    return { score: total === 0 ? 0 : covered / total, shared };
  }
}
