// A setting's command-line face: its long flag, and the help line that says where else it comes from.
import { type SettingRow, setting } from './settings-table.js';

/** `--timeout` from `--timeout <seconds>`, `--format` from `-f, --format <format>`. */
export function longFlag(row: SettingRow): string | undefined {
  return row.flag ? /--[a-z-]+/.exec(row.flag)?.[0] : undefined;
}

/** A global flag's help: the table's description, where else it comes from, and its default. */
export function flagHelp(name: string): string {
  const row = setting(name);
  const from = [
    ...(row.env ? [`env ${row.env.join(' or ')}`] : []),
    ...(row.key ? [`profile key ${row.key}`] : []),
    `default ${row.default}`,
  ];
  return `${row.description} (${from.join('; ')})`;
}
