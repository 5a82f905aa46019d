// The record filter flags (--severity ... --grep), declared once for every command that filters records.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { RecordFilter } from '../../filters/record-filter.js';
import { UsageError } from '../cli-errors.js';

/** The flags as commander parses them: the types its declarations (below) give them. */
export type FilterFlags = ReturnType<
  ReturnType<typeof addFilterOptions<[], Record<never, never>, Record<never, never>>>['opts']
>;

const LISTS = ['severity', 'risk', 'status', 'jurisdiction'] as const;
const TEXTS = ['category', 'brand', 'country', 'grep'] as const;

/** Adds the filter flags to a command. Values are case- and accent-insensitive; flags combine with AND. */
export function addFilterOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option('--severity <list>', 'risk_severity is one of these, e.g. serious,high')
    .option('--risk <list>', 'risk_types include one of these, e.g. fire,burn')
    .option('--status <list>', 'alert_status is one of these, e.g. active')
    .option('--jurisdiction <list>', 'geo_jurisdictions include one of these, e.g. FR,DE')
    .option('--category <text>', 'product_category contains this text')
    .option('--brand <text>', 'product_brand contains this text')
    .option('--country <country>', 'country_of_origin is this country: an ISO code or a name (DE, Germany, Allemagne)')
    .option('--grep <text>', 'any text field of the record contains this text');
}

/** The filter the flags ask for (empty when none is given). Lists are comma-separated whole values. */
export function parseFilterOptions(flags: FilterFlags): RecordFilter {
  const filter: RecordFilter = {};
  for (const name of LISTS) {
    const raw = flags[name];
    if (raw === undefined) continue;
    const values = raw
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (values.length === 0)
      throw new UsageError(`--${name} needs at least one value`, `example: --${name} ${EXAMPLES[name]}`);
    filter[name] = values;
  }
  for (const name of TEXTS) {
    const raw = flags[name];
    if (raw === undefined) continue;
    if (raw.trim() === '') throw new UsageError(`--${name} needs some text`, `example: --${name} ${EXAMPLES[name]}`);
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
