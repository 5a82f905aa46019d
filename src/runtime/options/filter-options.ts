// The record filter flags' values (--severity ... --grep) checked into a filter, for every command that filters records.
import { fold } from '../../filters/normalize.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import { UsageError } from '../cli-errors.js';

const LISTS = ['severity', 'risk', 'status', 'jurisdiction'] as const;
const TEXTS = ['category', 'brand', 'country', 'grep'] as const;

/** The flags' raw values, as the shell parsed them (src/cli/commands/filter-flags.ts declares them). */
export type FilterFlags = { [K in (typeof LISTS)[number] | (typeof TEXTS)[number]]?: string | undefined };

/**
 * The filter the flags ask for (empty when none is given). Lists are comma-separated whole values. A value that folds
 * to nothing (blank, or only combining marks such as U+0301) names nothing: a list leaves it out, a text is refused.
 */
export function parseFilterOptions(flags: FilterFlags): RecordFilter {
  const filter: RecordFilter = {};
  for (const name of LISTS) {
    const raw = flags[name];
    if (raw === undefined) continue;
    const values = raw
      .split(',')
      .map((v) => v.trim())
      .filter((v) => fold(v) !== '');
    if (values.length === 0)
      throw new UsageError(`--${name} needs at least one value`, `example: --${name} ${EXAMPLES[name]}`);
    filter[name] = values;
  }
  for (const name of TEXTS) {
    const raw = flags[name];
    if (raw === undefined) continue;
    if (fold(raw) === '') throw new UsageError(`--${name} needs some text`, `example: --${name} ${EXAMPLES[name]}`);
    filter[name] = raw.trim();
  }
  return filter;
}

const EXAMPLES: Record<keyof FilterFlags, string> = {
  severity: 'serious,high',
  risk: 'fire',
  status: 'active',
  jurisdiction: 'FR',
  category: 'toys',
  brand: 'acme',
  country: 'DE',
  grep: 'lithium',
};
