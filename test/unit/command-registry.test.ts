// The command registry is the one list of commands: every registered command is in the root help, its own help,
// docs/commands.md, each shell's completion script and the lazy table; nothing here names a command by hand.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, isCommandName, loadCommand, loadCommands } from '../../src/cli/registry.js';
import { SHELLS } from '../../src/cli/completion/shells.js';
import { runMain } from '../helpers/in-process.js';

const DOCS = readFileSync(path.resolve(import.meta.dirname, '../../docs/commands.md'), 'utf8');

describe('the command registry', () => {
  it('holds each command under its own name, once, with a summary', async () => {
    const definitions = await loadCommands();
    expect(definitions.map((d) => d.name)).toEqual([...COMMAND_NAMES]);
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
    for (const d of definitions) {
      expect(d.summary.length, d.name).toBeGreaterThan(10);
    }
  });

  it('finds a name it holds and no other', () => {
    for (const name of COMMAND_NAMES) expect(isCommandName(name)).toBe(true);
    expect(isCommandName('feeed')).toBe(false);
    expect(isCommandName('toString')).toBe(false);
  });

  it.each(COMMAND_NAMES)('%s is in the root help with its summary', async (name) => {
    const { summary } = await loadCommand(name);
    const root = await runMain(['--help'], { env: { COLUMNS: '400' } });
    expect(root.code).toBe(0);
    const line = root.stdout.split('\n').find((l) => l.trimStart().startsWith(`${name} `));
    expect(line, `root help line of ${name}`).toBeDefined();
    expect(line).toContain(summary.slice(0, 40));
  });

  it.each(COMMAND_NAMES)('%s has its section in docs/commands.md', async (name) => {
    const { summary } = await loadCommand(name);
    const section = DOCS.split(/^## /m).find((s) => s.startsWith(`recall-feed ${name}\n`));
    expect(section, `docs/commands.md section of ${name}`).toBeDefined();
    expect(section?.replace(/\s+/g, ' ')).toContain(summary.slice(0, 40));
  });

  it.each(SHELLS)('the %s completion script offers every command', async (shell) => {
    const r = await runMain(['completion', shell]);
    expect(r.code).toBe(0);
    const words = new Set(r.stdout.split(/[^a-z-]+/));
    for (const name of COMMAND_NAMES) expect(words.has(name), `${shell} completes ${name}`).toBe(true);
  });

  it.each(COMMAND_NAMES)(
    '%s is in the lazy table: defined alone, its help is what help prints among all',
    async (name) => {
      const alone = await runMain([name, '--help']);
      const amongAll = await runMain(['help', name]);
      expect(alone.code).toBe(0);
      expect(alone.stdout).toContain(`Usage: recall-feed ${name}`);
      expect(alone.stdout).toBe(amongAll.stdout);
    },
  );

  it.each(COMMAND_NAMES)('%s help lists the formats it declares', async (name) => {
    const { formats } = await loadCommand(name);
    const help = (await runMain([name, '--help'], { env: { COLUMNS: '400' } })).stdout;
    if (!formats) {
      expect(help).not.toContain('Formats (-f):');
      return;
    }
    expect(help).toContain('Formats (-f):');
    for (const format of formats.names ?? []) expect(help).toMatch(new RegExp(`Formats \\(-f\\):\\n.*\\b${format}\\b`));
  });
});
