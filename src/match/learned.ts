// What `match --learn` fits from the user's own closed cases and the archive: tiers promoted on measured precision, name words reweighed, brand aliases.
import { type AliasEvidence, type BrandAliases, keptBrands } from './brand-aliases.js';
import { brandCore } from './brands.js';

/** Each level's precision target: a tier is promoted to `match` only when its measured precision is sure to reach it. */
export const TARGET = { match: 0.98, possible: 0.9 } as const;
/** Fewer judged cases than this and nothing is learned of a tier or a word. */
export const MIN_CASES = { tier: 10, word: 2 } as const;
/** A word's weight is multiplied by at most this, or at least its inverse. */
const MAX_FACTOR = 2;

/** A closed case as the fit reads it: its tier, whether the product was really affected, and the name words shared. */
export interface JudgedPair {
  reason: string;
  /** Removed from sale or action taken: true; false positive or not our product: false. */
  right: boolean;
  /** The name words the notice and the row shared (brand+name tiers), empty otherwise. */
  words: readonly string[];
}

export interface LearnedTier {
  confirmed: number;
  wrong: number;
  /** The lower end of the 95% Wilson interval of the tier's precision; null below MIN_CASES.tier. */
  lower: number | null;
  /** The level `match` gives the tier's pairs from now on. */
  level: 'match' | 'possible';
}

export interface Learned {
  version: 1;
  learned_at: string;
  /** The catalogue's sha256 when it was learned from (informative: a catalogue changes daily). */
  catalogue_sha256: string;
  cases: number;
  tiers: Record<string, LearnedTier>;
  /** Name word -> factor on its weight: below 1 for a word that misled, above for one that was right. */
  words: Record<string, number>;
  /** Firm -> the catalogue brands it recalls under (brand-aliases.ts); absent from files written before. */
  aliases?: BrandAliases;
}

/** The lower end of the Wilson score interval (95%): how low the true share may be, given k of n. */
export function wilsonLower(k: number, n: number, z = 1.96): number {
  if (n === 0) return 0;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre - margin) / (1 + z2 / n);
}

/** The tiers `match` gives as possible by default; the only ones learning may promote. */
const POSSIBLE_TIERS = new Set(['barcode-unchecked', 'model', 'brand+name']);

/** Fits tiers and word factors from judged pairs. A tier is promoted only when its Wilson lower bound reaches 0.98. */
export function fitLearned(
  pairs: readonly JudgedPair[],
  meta: { at: string; sha256: string },
  aliases: BrandAliases = {},
): Learned {
  const tiers: Record<string, LearnedTier> = Object.create(null);
  const words = new Map<string, { right: number; wrong: number }>();
  for (const p of pairs) {
    const t = tiers[p.reason] ?? { confirmed: 0, wrong: 0, lower: null, level: 'possible' };
    tiers[p.reason] = t;
    if (p.right) t.confirmed++;
    else t.wrong++;
    for (const w of p.words) {
      const c = words.get(w) ?? { right: 0, wrong: 0 };
      if (p.right) c.right++;
      else c.wrong++;
      words.set(w, c);
    }
  }
  for (const [reason, t] of Object.entries(tiers)) {
    const n = t.confirmed + t.wrong;
    const lower = n >= MIN_CASES.tier ? wilsonLower(t.confirmed, n) : undefined;
    t.lower = lower === undefined ? null : round(lower);
    // Decided on the bound itself, not its rounding: 0.97997 is not 0.98.
    t.level = !POSSIBLE_TIERS.has(reason) || (lower !== undefined && lower >= TARGET.match) ? 'match' : 'possible';
  }
  const factors: Record<string, number> = {};
  for (const [w, c] of [...words].sort(([a], [b]) => a.localeCompare(b))) {
    if (c.right + c.wrong < MIN_CASES.word) continue;
    // Laplace-smoothed share right, centred on 1: 0 of 3 right gives 0.4, 3 of 3 gives 1.6.
    const factor = ((c.right + 1) / (c.right + c.wrong + 2)) * 2;
    factors[w] = round(Math.min(MAX_FACTOR, Math.max(1 / MAX_FACTOR, factor)));
  }
  return {
    version: 1,
    learned_at: meta.at,
    catalogue_sha256: meta.sha256,
    cases: pairs.length,
    tiers,
    words: factors,
    aliases,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * A count as read back from a file a user may edit: a whole number from 0 (within the numbers a double holds exactly),
 * else undefined. Never 0: a `wrong` read as none would promote its tier.
 */
const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);

/**
 * A learned file as read back: checked field by field, since a user may edit or break it. Undefined when unusable,
 * also when a tier's or an alias's count is not a whole number from 0: --learn never writes one, and none is read as 0.
 */
export function parseLearned(text: string): Learned | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const l = v as Partial<Learned>;
  if (l === null || typeof l !== 'object' || l.version !== 1 || typeof l.tiers !== 'object' || l.tiers === null)
    return undefined;
  const tiers: Record<string, LearnedTier> = Object.create(null);
  for (const [reason, t] of Object.entries(l.tiers)) {
    if (!t || (t.level !== 'match' && t.level !== 'possible')) continue;
    // Read back, the bound is worked out again from the counts: an edited file cannot promote a tier by hand, nor by
    // a `lower` its own counts do not give.
    const [confirmed, wrong] = [count(t.confirmed), count(t.wrong)];
    if (confirmed === undefined || wrong === undefined) return undefined;
    const n = confirmed + wrong;
    const lower = n >= MIN_CASES.tier ? wilsonLower(confirmed, n) : undefined;
    const sure = lower !== undefined && lower >= TARGET.match;
    const level = POSSIBLE_TIERS.has(reason) && !sure ? 'possible' : t.level;
    tiers[reason] = { confirmed, wrong, lower: lower === undefined ? null : round(lower), level };
  }
  const words: Record<string, number> = Object.create(null);
  for (const [w, f] of Object.entries(l.words ?? {}))
    if (typeof f === 'number' && Number.isFinite(f)) words[w] = Math.min(MAX_FACTOR, Math.max(1 / MAX_FACTOR, f));
  const aliases = parseAliases(l.aliases);
  if (aliases === undefined) return undefined;
  return { ...(l as Learned), tiers, words, aliases };
}

/**
 * Aliases as read back: firm and brand keys normalised as the matchers compare them, evidence counts checked (undefined
 * when one is not a count).
 */
function parseAliases(v: unknown): BrandAliases | undefined {
  const aliases: BrandAliases = Object.create(null);
  if (v === null || typeof v !== 'object') return aliases;
  for (const [firm, brands] of Object.entries(v)) {
    if (brands === null || typeof brands !== 'object') continue;
    const read: [string, AliasEvidence][] = [];
    for (const [brand, e] of Object.entries(brands as Record<string, unknown>)) {
      const { notices, cases, wrong } = (e ?? {}) as Partial<AliasEvidence>;
      const [n, c, w] = [count(notices), count(cases), count(wrong)];
      if (n === undefined || c === undefined || w === undefined) return undefined;
      const core = brandCore(brand);
      if (core !== '') read.push([core, { notices: n, cases: c, wrong: w }]);
    }
    // The same rules as --learn's: an edited file cannot tie a retailer to every brand.
    const key = brandCore(firm);
    const kept = keptBrands(read);
    if (key !== '' && kept !== undefined && kept !== 'too broad') aliases[key] = kept;
  }
  return aliases;
}
