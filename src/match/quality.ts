// `match --quality`: how often each tier was right on the user's own cases, and what share of each source's recalls the matcher can see at all.
import { recallCodes } from './recall-codes.js';
import { recallScope } from './scope.js';

/** Closed as the product was really affected. */
export const CONFIRMED = new Set(['removed-from-sale', 'action-taken']);
/** Closed as the match was wrong. */
export const WRONG = new Set(['false-positive', 'not-our-product']);
/** Fewer judged cases than this and a tier's precision is not worth printing. */
export const MIN_JUDGED = 10;

/** What a case contributes: the tier it was opened at, its status and (when closed) its outcome. */
export interface CaseOutcome {
  level: string;
  reason: string;
  status: string;
  outcome: string | null;
}

/** One line of the quality output: a tier's precision or a source's coverage (the other's fields null). */
export interface QualityRow {
  section: 'tier' | 'coverage';
  /** `match/barcode`, or a data source. */
  subject: string;
  /** Judged cases (confirmed + wrong), or recalls. */
  sample: number;
  confirmed: number | null;
  wrong: number | null;
  /** Closed otherwise (no-action-needed) or not closed yet: not judged. */
  unjudged: number | null;
  precision: number | null;
  note: string;
  barcode: number | null;
  model: number | null;
  lot: number | null;
  date: number | null;
}

export const QUALITY_COLUMNS = [
  'section',
  'subject',
  'sample',
  'confirmed',
  'wrong',
  'unjudged',
  'precision',
  'barcode',
  'model',
  'lot',
  'date',
  'note',
] as const;

const share = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 1000);
const blank = { barcode: null, model: null, lot: null, date: null };

/** Per level and reason, best tiers first: confirmed against wrong, with the sample and a word when it is too small. */
export function tierPrecision(cases: Iterable<CaseOutcome>, minJudged = MIN_JUDGED): QualityRow[] {
  const tiers = new Map<string, { confirmed: number; wrong: number; unjudged: number }>();
  for (const c of cases) {
    const key = `${c.level}/${c.reason}`;
    const t = tiers.get(key) ?? { confirmed: 0, wrong: 0, unjudged: 0 };
    if (c.status === 'closed' && c.outcome !== null && CONFIRMED.has(c.outcome)) t.confirmed++;
    else if (c.status === 'closed' && c.outcome !== null && WRONG.has(c.outcome)) t.wrong++;
    else t.unjudged++;
    tiers.set(key, t);
  }
  const order = (k: string) => (k.startsWith('match/') ? 0 : k.startsWith('possible/') ? 1 : 2);
  return [...tiers]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([subject, t]) => {
      const sample = t.confirmed + t.wrong;
      const enough = sample >= minJudged;
      return {
        section: 'tier',
        subject,
        sample,
        ...t,
        precision: enough ? share(t.confirmed, sample) : null,
        note: enough ? '' : `too few to judge (${sample} closed as confirmed or wrong; ${minJudged} needed)`,
        ...blank,
      };
    });
}

/** Per data source: the share of its recalls naming a barcode (valid or not), a model number, a lot (or all lots), a best-before or use-by date. */
export class CoverageCounter {
  private readonly bySource = new Map<
    string,
    { recalls: number; barcode: number; model: number; lot: number; date: number }
  >();

  add(recall: Record<string, unknown>): void {
    const source = typeof recall.data_source === 'string' ? recall.data_source : '(none)';
    const c = this.bySource.get(source) ?? { recalls: 0, barcode: 0, model: 0, lot: 0, date: 0 };
    c.recalls++;
    // A code with a wrong check digit still matches the identical code (barcode-unchecked): it counts.
    if (recallCodes(recall).length > 0) c.barcode++;
    const models = recall.product_model_numbers;
    if (Array.isArray(models) && models.some((m) => typeof m === 'string' && m.trim() !== '')) c.model++;
    const scope = recallScope(recall);
    if (scope.some((i) => (i.kind === 'lot' && !i.quiet) || i.kind === 'all-lots')) c.lot++;
    if (scope.some((i) => i.kind === 'date' && (i.dateKind === 'best-before' || i.dateKind === 'use-by'))) c.date++;
    this.bySource.set(source, c);
  }

  rows(): QualityRow[] {
    return [...this.bySource]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([subject, c]) => ({
        section: 'coverage',
        subject,
        sample: c.recalls,
        confirmed: null,
        wrong: null,
        unjudged: null,
        precision: null,
        note: '',
        barcode: share(c.barcode, c.recalls),
        model: share(c.model, c.recalls),
        lot: share(c.lot, c.recalls),
        date: share(c.date, c.recalls),
      }));
  }
}
