// One streamed catalogue row against the recall index: the same tiers, reasons and scope as CatalogueIndex.match gives it.
import { type CoreHit, type BrandHits, hitOrder } from './brand-hits.js';
import type { RowCode } from './catalogue-batch.js';
import type { Gs1Code } from './gs1.js';
import type { IndexedRow } from './indexed-row.js';
import type { Learned } from './learned.js';
import { nameTier } from './name-tier.js';
import { type NoticeItems, noticeItems } from './notice-items.js';
import { type Match, RANK } from './match-levels.js';
import type { NameWeights } from './name-score.js';
import { describedModels } from './notice-models.js';
import { barcodeFound, modelFound, NoticeBrandWords, revisionFound } from './code-tiers.js';
import { type PreparedRecall, productWords, type RecallIndex, scopeOf } from './recall-index.js';
import type { ScopeAnswer } from './scope-check.js';
import { type Found, scopeAnswer, scopedMatch } from './scoped-matches.js';

/** A streamed row as the index would keep it, with its codes and model cell. */
export interface StreamRow extends IndexedRow {
  codes: RowCode[];
  gs1?: Gs1Code;
  modelRaw: string;
}

export interface RowContext {
  index: RecallIndex;
  hits: BrandHits;
  weights: NameWeights;
  learned: Learned | undefined;
  explain: boolean;
  /** Fills the row's batch (lot, dates): read only for a row some recall touches. */
  fillBatch: (r: StreamRow) => void;
}

/** What a recall keeps for the rows after: its texts read lazily, its scope answers for rows without a batch. */
interface RecallMemo {
  words?: NoticeBrandWords;
  described?: Set<string>;
  unbatched?: Map<string, ScopeAnswer>;
  /** The notice's name words (all, or its product's) without a catalogue core's own, per core: the same for every row of that brand. */
  wordsBesides?: Map<ReadonlySet<string>, Map<string, Set<string>>>;
  /** The products its name lists, with their words and pack sizes. */
  items?: NoticeItems;
}
const memos = new WeakMap<PreparedRecall, RecallMemo>();
const memoOf = (p: PreparedRecall) => {
  const m = memos.get(p) ?? {};
  memos.set(p, m);
  return m;
};

/** The row's matches, one per recall that touches it, in recall order. */
export function rowMatches(
  r: StreamRow,
  ctx: RowContext,
  coreHits: readonly ReadonlyMap<PreparedRecall, CoreHit>[],
): { recall: PreparedRecall; match: Match }[] {
  const candidates = new Set<PreparedRecall>();
  for (const c of r.codes)
    if (c.gtin14 !== undefined) for (const p of ctx.index.byGtin.get(c.gtin14) ?? []) candidates.add(p);
  if (r.modelKey !== '') {
    for (const p of ctx.index.byModel.get(r.modelKey) ?? []) candidates.add(p);
    for (const p of ctx.index.byBase.get(r.modelKey) ?? []) candidates.add(p);
  }
  // A recall found by brand alone can only make a brand+name pair (its codes and models would have found it above),
  // and only through a name word both have: most recalls of a brand share none with the row.
  if (r.tokens.size > 0)
    for (const hits of coreHits)
      for (const p of hits.keys()) if (!candidates.has(p) && someShared(r.tokens, p.glossed)) candidates.add(p);
  if (candidates.size === 0) return [];
  ctx.fillBatch(r);
  const out: { recall: PreparedRecall; match: Match }[] = [];
  for (const p of [...candidates].sort((a, b) => a.order - b.order)) {
    const hits = new Map<string, CoreHit>();
    r.brands.forEach((core, i) => {
      const hit = coreHits[i]?.get(p);
      if (hit && !hits.has(core)) hits.set(core, hit);
    });
    const found = pairFound(p, r, hits, ctx);
    if (!found) continue;
    const scope = scopeOf(p);
    const memo = memoOf(p);
    memo.unbatched ??= new Map();
    const answer = scopeAnswer(scope, r, memo.unbatched);
    out.push({ recall: p, match: scopedMatch(scope, answer, r, found, ctx.explain, ctx.learned) });
  }
  return out;
}

/** The row's best tier with recall `p`, offered in the order CatalogueIndex.match offers them; undefined when none. */
function pairFound(p: PreparedRecall, r: StreamRow, hits: Map<string, CoreHit>, ctx: RowContext): Found | undefined {
  let best: Found | undefined;
  const offer = (found: Found) => {
    if (best === undefined || RANK[found.reason] < RANK[best.reason]) best = found;
  };
  for (const code of p.codes)
    for (const c of r.codes) {
      if (c.gtin14 !== code.gtin14) continue;
      const found = barcodeFound(code, c);
      offer(found);
    }
  const brandOf = () => {
    for (const core of r.brands) {
      const hit = hits.get(core);
      if (hit) return { core, hit: hit.hit };
    }
    return undefined;
  };
  for (const { raw: m, key, base } of p.models) {
    if (key === r.modelKey) {
      const memo = memoOf(p);
      memo.words ??= new NoticeBrandWords(p.recall, p.recallBrand);
      const found = modelFound({ notice: m, key, row: r.modelRaw }, r, brandOf(), p.recallBrand, memo.words);
      if (found) offer(found);
    }
    if (base !== undefined && base === r.modelKey) {
      const found = revisionFound(m, r.modelRaw, base);
      offer(found);
    }
  }
  const name = nameFound(p, r, hits, ctx);
  if (name) offer(name);
  return best;
}

/**
 * The brand+name tier: the row is weighed once, through the first of its cores in the recall's hits order whose
 * notice words (the core's own left out) it shares one of, as the index's loop over hits and words first reaches it.
 */
function nameFound(p: PreparedRecall, r: StreamRow, hits: Map<string, CoreHit>, ctx: RowContext): Found | undefined {
  if (hits.size === 0 || r.tokens.size === 0) return undefined;
  const ordered = [...hits]
    .map(([core, hit]) => ({ core, hit, facts: ctx.hits.factsOf(core) }))
    .sort((a, b) => hitOrder(a, b));
  for (const { core, hit } of ordered) {
    const noticeTokens = wordsBesides(p, core, p.glossed);
    if (!someShared(noticeTokens, r.tokens)) continue;
    return nameTier({
      row: r,
      noticeTokens,
      productTokens: wordsBesides(p, core, productWords(p)),
      core,
      hit: hit.hit,
      recallBrand: p.recallBrand,
      weights: ctx.weights,
      noticeGtins: p.noticeGtins,
      otherModel: (key) => otherModel(p, key),
      noticeItems: () => {
        const memo = memoOf(p);
        memo.items ??= noticeItems(p.productName, p.tokens, p.glossed);
        return memo.items;
      },
    });
  }
  return undefined;
}

/** The notice's name words (`words`: all of them, or those besides its own brand's), the core's own left out. */
function wordsBesides(p: PreparedRecall, core: string, words: ReadonlySet<string>): Set<string> {
  const memo = memoOf(p);
  memo.wordsBesides ??= new Map();
  let byCore = memo.wordsBesides.get(words);
  if (byCore === undefined) {
    byCore = new Map();
    memo.wordsBesides.set(words, byCore);
  }
  let out = byCore.get(core);
  if (out === undefined) {
    const own = new Set(core.split(' '));
    out = new Set([...words].filter((t) => !own.has(t) && !own.has(`${t}s`)));
    byCore.set(core, out);
  }
  return out;
}

function someShared(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const t of a) if (b.has(t)) return true;
  return false;
}

/** A model the notice does not list, in its model field or its description: the brand's other product. */
function otherModel(p: PreparedRecall, key: string): boolean {
  const memo = memoOf(p);
  memo.described ??= describedModels(p.recall, p.noticeModels);
  return memo.described.size > 0 && !memo.described.has(key);
}
