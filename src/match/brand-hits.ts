// How each recall's brand relates to one catalogue brand core, worked out as CatalogueIndex.relatedBrands offers it.
import { brandInTitle, distinctiveBrandTokens, relateBrands } from './brands.js';
import { type BrandHit, STRENGTH } from './indexed-row.js';
import type { PreparedRecall, RecallIndex } from './recall-index.js';

/**
 * What the whole catalogue says of a core, learned on the first pass: it is a strong core of some row (only those
 * are found by a shared word, a title or a name), one of them written "A & B", and when it was first seen (it
 * orders cores offered at the same step, as the index's insertion order does).
 */
export interface CoreFacts {
  amp: boolean;
  first: number;
}

/** A recall's hit on a core, and where in relatedBrands' sequence it was first offered (its place in the hits). */
export interface CoreHit {
  recall: PreparedRecall;
  hit: BrandHit;
  at: number[];
}

/** The hit of recall `p` on catalogue core `core`, or undefined; `facts` undefined when no row has it as a strong core. */
export function brandHit(p: PreparedRecall, core: string, facts: CoreFacts | undefined): CoreHit | undefined {
  let found: CoreHit | undefined;
  const offer = (hit: BrandHit, at: number[]) => {
    if (!found) found = { recall: p, hit, at };
    else if (STRENGTH[hit.how] < STRENGTH[found.hit.how]) found.hit = hit;
  };
  p.weak.forEach((part, i) => {
    if (part === core && facts) offer({ how: 'same', recall: part }, [0, i]);
  });
  const words = distinctiveBrandTokens(core);
  p.strong.forEach((part, i) => {
    if (part === core) offer({ how: 'same', recall: part }, [1, i, -1]);
    if (!facts) return;
    distinctiveBrandTokens(part).forEach((w, j) => {
      if (!words.includes(w)) return;
      const how = relateBrands(part, core);
      const halves = p.weak.length > 0 || facts.amp;
      if (how && !(how === 'shared-word' && halves)) offer({ how, recall: part }, [1, i, j]);
    });
  });
  if (!facts) return found;
  if (p.title !== undefined) {
    const j = p.titleWords.findIndex((w) => words.includes(w));
    if (j >= 0 && brandInTitle(core, p.title)) offer({ how: 'in-title', recall: p.title }, [2, j]);
  }
  const j = p.nameWords.findIndex((w) => words.includes(w));
  if (j >= 0 && brandInTitle(core, p.name)) offer({ how: 'in-name', recall: p.name.slice(0, 80) }, [3, j]);
  p.aliases.forEach((a, i) => {
    if (a.core === core) offer({ how: 'alias', recall: a.firm }, [4, i]);
  });
  return found;
}

/** The order of a recall's hits map: where each core was first offered, then which core the catalogue had first. */
export function hitOrder(a: { hit: CoreHit; facts?: CoreFacts }, b: { hit: CoreHit; facts?: CoreFacts }): number {
  const n = Math.max(a.hit.at.length, b.hit.at.length);
  for (let i = 0; i < n; i++) {
    const d = (a.hit.at[i] ?? -2) - (b.hit.at[i] ?? -2);
    if (d !== 0) return d;
  }
  return (a.facts?.first ?? 0) - (b.facts?.first ?? 0);
}

/** Each core's hits, by recall, kept for the cores seen lately: a catalogue repeats its brands row after row. */
export class BrandHits {
  private readonly cache = new Map<string, Map<PreparedRecall, CoreHit>>();

  constructor(
    private readonly index: RecallIndex,
    private readonly facts: ReadonlyMap<string, CoreFacts>,
    private readonly limit = 50_000,
  ) {}

  factsOf(core: string): CoreFacts | undefined {
    return this.facts.get(core);
  }

  of(core: string): Map<PreparedRecall, CoreHit> {
    let hits = this.cache.get(core);
    if (hits) return hits;
    hits = new Map();
    const facts = this.facts.get(core);
    for (const p of this.index.brandCandidates(core)) {
      const hit = brandHit(p, core, facts);
      if (hit) hits.set(p, hit);
    }
    if (this.cache.size >= this.limit) this.cache.clear();
    this.cache.set(core, hits);
    return hits;
  }
}
