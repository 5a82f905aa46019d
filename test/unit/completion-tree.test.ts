// The completion model read from a commander program: commands, flags and what follows each flag.
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { describeTree, flagsInScope, type CommandSpec } from '../../src/cli/completion/tree.js';
import { writesFormats } from '../../src/cli/format-choices.js';

function program(): Command {
  const p = new Command('tool')
    .option('-o, --output <file>', 'write here')
    .option('--format <fmt>', 'how')
    .addOption(new Option('--mode <mode>', 'closed by commander').choices(['fast', 'slow']))
    .option('--name <text>', 'any text')
    .option('-q, --quiet', 'a switch')
    .addOption(new Option('--secret <x>', 'not shown').hideHelp());
  writesFormats(p.command('run'), 'record')
    .option('--input <file>', 'a file by its placeholder')
    .option('--sort <field>', 'a known list')
    .option('--name', "a switch here, shadowing the program's")
    .addArgument(new Argument('<speed>').choices(['1', '2']))
    .action(() => undefined);
  p.command('secret-cmd', { hidden: true }).action(() => undefined);
  const group = p.command('group');
  group
    .command('leaf')
    .argument('<key>')
    .action(() => undefined);
  return p;
}

const find = (spec: CommandSpec, path: string[]): CommandSpec =>
  path.reduce((node, name) => node.commands.find((c) => c.name === name) as CommandSpec, spec);

describe('describeTree', () => {
  const root = describeTree(program());

  it("lists the visible commands, commander's help command included, and not hidden ones", () => {
    expect(root.commands.map((c) => c.name)).toEqual(['run', 'group', 'help']);
    expect(find(root, ['group']).commands.map((c) => c.name)).toEqual(['leaf', 'help']);
    expect(find(root, ['group', 'leaf']).path).toEqual(['group', 'leaf']);
  });

  it('tells switches, files, closed lists and free values apart', () => {
    const byName = Object.fromEntries(root.flags.map((f) => [f.names.join(' '), f.value]));
    expect(byName).toEqual({
      '-o --output': { kind: 'file' },
      '--format': { kind: 'oneOf', values: ['table', 'jsonl', 'json', 'csv', 'parquet'] },
      '--mode': { kind: 'oneOf', values: ['fast', 'slow'] },
      '--name': { kind: 'free' },
      '-q --quiet': { kind: 'none' },
      '-h --help': { kind: 'none' },
    });
    const run = Object.fromEntries(find(root, ['run']).flags.map((f) => [f.names.join(' '), f.value]));
    expect(run['--input']).toEqual({ kind: 'file' });
    expect(run['--sort']).toEqual({ kind: 'oneOf', values: ['published_at', 'created_in_db_at', 'updated_at'] });
  });

  it("gives arguments their closed values: declared choices, known names, help's sibling commands", () => {
    expect(find(root, ['run']).args).toEqual([{ name: 'speed', values: ['1', '2'] }]);
    expect(find(root, ['group', 'leaf']).args[0]?.values).toContain('api-key');
    // The program's help also takes a help topic (help-topics.ts); a group's, its subcommands only.
    expect(find(root, ['help']).args[0]?.values).toEqual(['run', 'group', 'environment', 'exit-codes', 'formats']);
    expect(find(root, ['group', 'help']).args[0]?.values).toEqual(['leaf']);
  });

  it('takes the values only a job knows from the caller, by command path and argument name', () => {
    const p = program();
    p.command('schema')
      .argument('[name]')
      .action(() => undefined);
    const root = describeTree(p, { 'schema name': ['record', 'match'], 'group leaf key': ['mine'] });
    expect(find(root, ['schema']).args).toEqual([{ name: 'name', values: ['record', 'match'] }]);
    expect(find(root, ['group', 'leaf']).args[0]?.values).toEqual(['mine']);
    expect(find(describeTree(p), ['schema']).args[0]?.values).toBeUndefined();
  });
});

describe('flagsInScope', () => {
  it("puts a command's own flags first and lets them shadow the program's", () => {
    const root = describeTree(program());
    const flags = flagsInScope(root, ['run']);
    const names = flags.map((f) => f.names.join(' '));
    expect(names.slice(0, 4)).toEqual(['--input', '--sort', '--name', '-h --help']);
    expect(names).toContain('-o --output');
    expect(names.filter((n) => n === '--name')).toHaveLength(1);
    expect(flags.find((f) => f.names.includes('--name'))?.value).toEqual({ kind: 'none' });
    expect(names).not.toContain('--secret');
  });
});

describe('what follows a flag, from its placeholder and the command', () => {
  it('takes a placeholder naming a file, and more, as a file; a word that merely starts with file is not one', () => {
    const p = new Command('tool')
      .option('--db <file|url>', 'an archive')
      .option('--to <file-or-url>', 'somewhere')
      .option('--metrics-file <file.prom>', 'a textfile')
      .option('--filter <filter>', 'not a file');
    const byName = Object.fromEntries(describeTree(p).flags.map((f) => [f.names.join(' '), f.value.kind]));
    expect(byName).toMatchObject({ '--db': 'file', '--to': 'file', '--metrics-file': 'file', '--filter': 'free' });
  });

  it("gives a command that declared its formats an -f of its own, with them, over the program's", () => {
    const p = new Command('tool').option('-f, --format <format>', 'records');
    writesFormats(p.command('digest'), 'digest', ['text', 'json']).action(() => undefined);
    writesFormats(p.command('plain'), 'record').action(() => undefined);
    p.command('other').action(() => undefined);
    const root = describeTree(p);
    const format = (path: string[]) => flagsInScope(root, path).find((f) => f.names.includes('--format'));
    expect(format(['digest'])).toMatchObject({
      names: ['-f', '--format'],
      value: { kind: 'oneOf', values: ['text', 'json'] },
    });
    expect(format(['plain'])?.value).toEqual({ kind: 'oneOf', values: ['table', 'jsonl', 'json', 'csv', 'parquet'] });
    // A command that declared no formats takes no -f (format-choices.ts refuses it): not offered there.
    expect(format(['other'])).toBeUndefined();
    expect(format([])?.description).toBe('records');
  });

  it('leaves out, where a command refuses them, the -o and -f of the program and the options of its parent', async () => {
    const { refusesParentOptions } = await import('../../src/cli/parent-options.js');
    const p = new Command('tool').option('-f, --format <format>', 'records').option('-o, --output <file>', 'here');
    const parent = writesFormats(p.command('list'), 'record').option('--level <list>', 'a selection');
    refusesParentOptions(writesFormats(parent.command('one'), 'record'), ['--level'], 'why');
    writesFormats(parent.command('each'), 'record');
    p.command('print').action(() => undefined);
    const root = describeTree(p);
    const names = (path: string[]) => flagsInScope(root, path).flatMap((f) => f.names);
    expect(names(['list', 'one'])).toEqual(expect.arrayContaining(['-o', '-f']));
    expect(names(['list', 'one'])).not.toContain('--level');
    expect(names(['list', 'each'])).toContain('--level');
    for (const flag of ['-f', '--format', '-o', '--output']) expect(names(['print'])).not.toContain(flag);
    expect(find(root, ['print']).refuses).toEqual(['-f', '--format', '-o', '--output']);
  });
});
