// Commander's declarations type every command's options (issue 27): no cast of opts() and no hand-written mirror of the flags.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const COMMANDS = path.join(SRC, 'cli', 'commands');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** A cast of what commander parsed: `cmd.opts() as X`, `this.optsWithGlobals() as unknown as X`, `<X>cmd.opts()`. */
const OPTS_CAST = /\.(?:opts|optsWithGlobals)\(\)\s*as\b|<[A-Za-z_][\w<>, ]*>\s*[\w.]+\.(?:opts|optsWithGlobals)\(\)/;
/** A hand-written interface of a command's options (`interface FooOptions {`), which the inference replaces. */
const OPTIONS_INTERFACE = /\binterface\s+\w*(?:Options|Flags)\b/;

function offenders(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('typed options', () => {
  it('the patterns find the casts and interfaces they are meant to', () => {
    expect(OPTS_CAST.test('const opts = cmd.opts() as O;')).toBe(true);
    expect(OPTS_CAST.test('const g = cmd.optsWithGlobals()  as GlobalFlags;')).toBe(true);
    expect(OPTS_CAST.test('const g = <GlobalFlags>cmd.optsWithGlobals();')).toBe(true);
    expect(OPTS_CAST.test('await run(this.opts(), this.optsWithGlobals(), ctx, this.args);')).toBe(false);
    expect(OPTIONS_INTERFACE.test('interface QueryOptions extends SelectionFlags {')).toBe(true);
    expect(OPTIONS_INTERFACE.test('type QueryOptions = OptionsOf<ReturnType<typeof declareQuery>>;')).toBe(false);
  });

  it('no file of src/ casts the options commander parsed', () => {
    expect(offenders(sourceFiles(SRC), OPTS_CAST)).toEqual([]);
  });

  it('no command file writes an interface mirroring its flags', () => {
    expect(offenders(sourceFiles(COMMANDS), OPTIONS_INTERFACE)).toEqual([]);
  });

  it('the command files import the typed commander, never the untyped one', () => {
    const untyped = offenders(sourceFiles(path.join(SRC, 'cli')), /from 'commander'/);
    expect(untyped).toEqual([]);
  });
});
