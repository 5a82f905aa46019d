// The matcher's last step: each candidate row judged against the notice's scope, given its level, and ordered.
import type { CatalogueBatch } from './catalogue-batch.js';
import type { CatalogueRow } from './catalogue.js';
import { explainScope } from './explain.js';
import { LEVEL, LEVEL_RANK, type Match, type MatchLevel, type MatchReason, RANK } from './match-levels.js';
import { recallScope, type ScopeItem } from './scope.js';
import type { Learned } from './learned.js';
import { checkScope, type ScopeAnswer } from './scope-check.js';

/** What the scope step needs of an indexed catalogue row. */
export interface ScopedRow {
  row: CatalogueRow;
  batch: CatalogueBatch;
  gtins: string[];
}

/** A candidate row's best tier: its reason, the explain text (built only when asked) and the name words shared. */
export interface Found {
  reason: MatchReason;
  explain: () => string;
  words?: string[];
  /**
   * Never promoted by match --learn, whatever the tier measured: the brands are tied only by a hint (a shared word, a
   * firm's learned alias) or not at all while the row has one, the row is the notice's sibling (a variant word), or
   * which revision of the model it holds is unknown.
   */
  keepLevel?: boolean;
}

/** The row's scope answer; rows without a lot or date share one per set of barcodes (`unbatched`, one per recall). */
export function scopeAnswer(scope: ScopeItem[], r: ScopedRow, unbatched: Map<string, ScopeAnswer>): ScopeAnswer {
  if (r.batch.lot !== undefined || r.batch.dates !== undefined)
    return unlessRagged(checkScope(scope, r.batch, r.gtins), r);
  const key = r.gtins.join(' ');
  let answer = unbatched.get(key);
  if (!answer) {
    answer = checkScope(scope, r.batch, r.gtins);
    unbatched.set(key, answer);
  }
  return answer;
}

/**
 * A row whose cells do not line up with its header ("Gadget Pro, 2024 edition" unquoted) may hold its name's end where
 * its lot should be: what it seems to say proves nothing out.
 */
function unlessRagged(answer: ScopeAnswer, r: ScopedRow): ScopeAnswer {
  const ragged = r.batch.ragged;
  if (ragged === undefined || answer.scope !== 'out-of-scope') return answer;
  return {
    scope: 'unknown',
    evidence: `verify lot/date, the catalogue row has ${ragged.cells} cells where its header has ${ragged.header}, so its lot and date may be other columns': ${answer.evidence}`,
  };
}

/** One row at its best tier, `excluded` when out of the notice's scope. */
export function scopedMatch(
  scope: ScopeItem[],
  answer: ScopeAnswer,
  r: ScopedRow,
  found: Found,
  explain: boolean,
  learned?: Learned,
): Match {
  // A tier `match --learn` promoted on the user's own closed cases gives `match`; nothing else moves a level.
  const tier = learned?.tiers[found.reason];
  const promoted = tier?.level === 'match' && LEVEL[found.reason] === 'possible' && found.keepLevel !== true;
  const tierLevel: MatchLevel = promoted ? 'match' : LEVEL[found.reason];
  // A match whose date is none the notice names (scope-check.ts) is only possible.
  const demoted = answer.unnamed === true && tierLevel === 'match';
  const level: MatchLevel = answer.scope === 'out-of-scope' ? 'excluded' : demoted ? 'possible' : tierLevel;
  // The scope part only when there is one to tell: the notice names some, or the row gives a lot or date.
  const told = scope.some((i) => !i.quiet) || r.batch.lot !== undefined || r.batch.dates !== undefined;
  return {
    level,
    reason: found.reason,
    row: r.row,
    scope: answer.scope,
    scopeEvidence: answer.evidence,
    ...(answer.on !== undefined && { excludedOn: answer.on }),
    ...(found.words && { nameWords: found.words }),
    explain: explain
      ? found.explain() +
        (promoted
          ? `; a match by match --learn: ${tier.confirmed} of ${tier.confirmed + tier.wrong} closed cases right (at least ${tier.lower} sure)`
          : '') +
        (told ? `; ${explainScope(scope, r.batch, answer)}` : '') +
        (demoted ? "; possible, not match: the row's date is none the notice names" : '')
      : '',
  };
}

/** Each row at its best tier, `excluded` when out of the notice's scope; best levels and tiers first, then by row. */
export function scopedMatches<R extends ScopedRow>(
  recall: Record<string, unknown>,
  best: ReadonlyMap<R, Found>,
  explain: boolean,
  learned?: Learned,
): Match[] {
  const scope = recallScope(recall);
  const unbatched = new Map<string, ScopeAnswer>();
  return [...best]
    .map(([r, found]) => scopedMatch(scope, scopeAnswer(scope, r, unbatched), r, found, explain, learned))
    .sort(
      (a, b) => LEVEL_RANK[a.level] - LEVEL_RANK[b.level] || RANK[a.reason] - RANK[b.reason] || a.row.line - b.row.line,
    );
}
