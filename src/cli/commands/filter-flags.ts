// The record filter flags (--severity ... --grep), declared once for every command that filters records.
import type { Command, OptionValues } from '@commander-js/extra-typings';

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
