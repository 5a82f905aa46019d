// The levels and reasons of a match, how they rank, and the rows and rejected codes the matcher returns.
import type { CatalogueRow } from './catalogue.js';
import type { Scope } from './scope-check.js';

export type MatchLevel = 'match' | 'possible' | 'excluded';
export type MatchReason = 'barcode' | 'model+brand' | 'brand+full-name' | 'barcode-unchecked' | 'model' | 'brand+name';

export interface Match {
  /** `excluded` when the row is out of the notice's scope (its lot or date is not among those named). */
  level: MatchLevel;
  reason: MatchReason;
  row: CatalogueRow;
  scope: Scope;
  /** The notice's words that decided the scope; empty when it names no lot or date. */
  scopeEvidence: string;
  /** For an excluded row: which of its values (lot, date) the notice's lists proved outside. */
  excludedOn?: 'lot' | 'date' | 'lot and date';
  /** The name words the notice and the row shared, for a brand+name tier: what `match --learn` learns from. */
  nameWords?: string[];
  /** Which rule fired on which normalised values; empty unless match() was asked for it. */
  explain: string;
}

export interface RejectedCode {
  line: number;
  value: string;
  reason: string;
  /** The code's only fault is its check digit: an identical code in a notice still matches it, as possible. */
  unchecked?: boolean;
}

export const RANK: Record<MatchReason, number> = {
  barcode: 0,
  'model+brand': 1,
  'brand+full-name': 2,
  'barcode-unchecked': 3,
  model: 4,
  'brand+name': 5,
};
export const LEVEL: Record<MatchReason, 'match' | 'possible'> = {
  barcode: 'match',
  'model+brand': 'match',
  'brand+full-name': 'match',
  'barcode-unchecked': 'possible',
  model: 'possible',
  'brand+name': 'possible',
};
export const LEVEL_RANK: Record<MatchLevel, number> = { match: 0, possible: 1, excluded: 2 };
