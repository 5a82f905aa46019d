// The settings table's `command` column (docs/settings-table.md) names every command whose own help offers the
// setting's flag: a reader of the table learns where the flag is taken, not only where it first was.
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/registry.js';
import { SETTINGS } from '../../src/runtime/settings-table.js';
import { runMain } from '../helpers/in-process.js';

const helps = new Map<string, string>();
async function helpOf(name: string): Promise<string> {
  if (!helps.has(name)) helps.set(name, (await runMain([name, '--help'], { env: { COLUMNS: '400' } })).stdout);
  return helps.get(name) as string;
}

describe('the settings table names the commands that take a flag', () => {
  it.each(SETTINGS.filter((row) => row.flag && row.command).map((row) => [row.name, row] as const))(
    '%s',
    async (_name, row) => {
      const flag = (row.flag as string).split(' ')[0] as string;
      const taking: string[] = [];
      for (const name of COMMAND_NAMES) {
        if (new RegExp(`^\\s+(-\\w, )?${flag}[ =<\\[]`, 'm').test(await helpOf(name))) taking.push(name);
      }
      const named = (row.command as string).split(', ').map((c) => c.split(' ')[0]);
      expect(taking.filter((c) => !named.includes(c))).toEqual([]);
    },
  );
});
