// Which error classes lead to each exit code, from error-table.ts and the CliErrors' own codes (docs/exit-codes.md).
import * as cliErrors from './cli-errors.js';
import { ERROR_TABLE, rowExits } from './error-table.js';
import { EXIT } from './exit-codes.js';

/** The exported CliError subclasses with the code each carries (a field set when one is made, so one is made). */
function cliErrorCodes(): [string, number][] {
  return Object.values(cliErrors).flatMap((value): [string, number][] => {
    if (typeof value !== 'function' || !(value.prototype instanceof cliErrors.CliError)) return [];
    const made = new (value as new (...args: string[]) => cliErrors.CliError)('', '', '');
    return [[value.name, made.exitCode]];
  });
}

/** Each exit code, ascending, with the names of the error classes that end a run with it, sorted. */
export function errorsByExitCode(): Map<number, string[]> {
  const byCode = new Map<number, Set<string>>();
  const add = (code: number, name: string) => byCode.set(code, (byCode.get(code) ?? new Set()).add(name));
  for (const r of ERROR_TABLE) for (const exit of rowExits(r)) add(EXIT[exit], r.error.name);
  for (const [name, code] of cliErrorCodes()) add(code, name);
  return new Map([...byCode].sort(([a], [b]) => a - b).map(([code, names]) => [code, [...names].sort()]));
}
