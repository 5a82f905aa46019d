// Each run defines only the command it invokes: the lazily defined command must be the same command,
// and the command word must be found as commander finds it.
import { Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { invokedCommand } from '../../src/cli/main.js';
import { COMMAND_NAMES } from '../../src/cli/registry.js';
import { runMain } from '../helpers/in-process.js';

describe('invokedCommand', () => {
  // A root with the same kinds of option as the real one: with a value, optional value, boolean, negatable.
  const root = new Command('x')
    .addOption(new Option('-f, --format <format>'))
    .addOption(new Option('--profile <name>'))
    .addOption(new Option('--color [when]'))
    .addOption(new Option('-q, --quiet'))
    .addOption(new Option('--no-color'));

  it.each([
    [['feed', '--help'], 'feed'],
    [['-f', 'csv', 'feed'], 'feed'],
    [['--format', 'csv', 'sources'], 'sources'],
    [['--format=csv', 'health'], 'health'],
    [['-q', 'sync'], 'sync'],
    [['--profile', 'feed', '--help'], undefined],
    [['--profile', 'work', 'query', '--since', '7d'], 'query'],
    [['--no-color', 'stats'], 'stats'],
    [['--color', 'always', 'show', '1'], 'show'],
    [['--help'], undefined],
    [[], undefined],
    [['-qf', 'csv', 'feed'], undefined],
    [['--', 'feed'], undefined],
    [['feeed'], 'feeed'],
    [['help', 'feed'], 'help'],
  ])('%j → %s', (argv, expected) => {
    expect(invokedCommand(argv, root)).toBe(expected);
  });
});

describe('a command defined alone', () => {
  // Each command's help alone and among all: test/unit/command-registry.test.ts.
  it('the root help lists every command', async () => {
    const r = await runMain(['--help']);
    expect(r.code).toBe(0);
    const listed = [...r.stdout.matchAll(/^ {2}([a-z]+)\b.*$/gm)]
      .map((m) => m[1])
      .filter((w) => (COMMAND_NAMES as readonly string[]).includes(w as string) || w === 'help');
    expect(listed).toEqual([...COMMAND_NAMES, 'help']);
  });

  it('an unknown command is still met with a suggestion from every command', async () => {
    const r = await runMain(['feeed']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: did you mean feed?');
  });

  it('an option value that names a command does not pick that command', async () => {
    // `--profile feed` names a profile: the root help follows, with every command in it.
    const r = await runMain(['--profile', 'feed', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: recall-feed [options] [command]');
    expect(r.stdout).toMatch(/^ {2}match /m);
  });
});
