// The record filter flags (--severity ... --grep), declared once for every command that filters records.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../../runtime/cli-errors.js';

/**
 * A list flag's parser (comma-separated values, any of which may match): a repeat adds its values, so
 * `--severity serious --severity high` is `--severity serious,high`.
 */
export function addsUp(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/**
 * A one-value flag's parser: given again with another value it is refused, as the earlier value would silently go
 * (`--since 7d --since 30d`); the same value twice is that value.
 */
export function onlyOnce(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined && previous !== value)
      throw new UsageError(`${flag} was given twice`, `${flag} takes one value: give it once`);
    return value;
  };
}

/**
 * Adds the filter flags to a command. Values are case- and accent-insensitive; flags combine with AND. A list flag's
 * repeats add up (OR); a text flag takes one value.
 */
export function addFilterOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option('--severity <list>', 'risk_severity is one of these, e.g. serious,high', addsUp)
    .option('--risk <list>', 'risk_types include one of these, e.g. fire,burn', addsUp)
    .option('--status <list>', 'alert_status is one of these, e.g. active', addsUp)
    .option('--jurisdiction <list>', 'geo_jurisdictions include one of these, e.g. FR,DE', addsUp)
    .option('--category <text>', 'product_category contains this text', onlyOnce('--category'))
    .option('--brand <text>', 'product_brand contains this text', onlyOnce('--brand'))
    .option(
      '--country <country>',
      'country_of_origin is this country: an ISO code or a name (DE, Germany, Allemagne)',
      onlyOnce('--country'),
    )
    .option('--grep <text>', 'any text field of the record contains this text', onlyOnce('--grep'));
}
