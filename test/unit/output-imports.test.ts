// src/output stands alone: at run time it imports no other folder of src/, and the digest's and report's renderers are pure.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const OUTPUT = path.resolve(import.meta.dirname, '../../src/output');

function sourceFiles(dir = OUTPUT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports that load code (static, re-export, dynamic), leaving out `import type` and `export type`. */
const LOADING =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s*(['"])(\.{1,2}\/[^'"\n]*)\1|\bimport\s*\(\s*(['"])(\.{1,2}\/[^'"\n]*)\3/g;

/** Each import of `text` (a file at `file`) that loads a module outside src/output. */
function importsOutside(file: string, text: string): string[] {
  return [...text.matchAll(LOADING)].flatMap((m) => {
    const spec = m[2] ?? m[4]!;
    const target = path.resolve(path.dirname(file), spec);
    return target.startsWith(`${OUTPUT}${path.sep}`) ? [] : [`${path.relative(OUTPUT, file)} -> ${spec}`];
  });
}

/** What a pure renderer never does: read the clock, the process, files or the network. */
const IMPURE = /\bDate\.now\b|\bnew Date\(\)|\bprocess\.|['"]node:(?:fs|net|http|https|child_process)/;

describe('the checks themselves', () => {
  it('finds a loading import outside src/output, and lets type-only ones and those inside pass', () => {
    const file = path.join(OUTPUT, 'digest', 'x.ts');
    // Built from parts, so that no tool that rewrites this repo's imports mistakes these for real ones.
    const from = (spec: string) => `from '${spec}'`;
    const text = [
      `import { a } ${from('../../actions/email-message.js')};`,
      `import type { B } ${from('../../archive/health.js')};`,
      `export type { C } ${from('../../archive/index.js')};`,
      `import { d } ${from('../markup.js')};`,
      `export { e } ${from('../../jobs/digest/digest-model.js')};`,
      `const f = await import(${"'"}../../runtime/session.js');`,
    ].join('\n');
    expect(importsOutside(file, text)).toEqual([
      'digest/x.ts -> ../../actions/email-message.js',
      'digest/x.ts -> ../../jobs/digest/digest-model.js',
      'digest/x.ts -> ../../runtime/session.js',
    ]);
    expect(IMPURE.test('const t = Date.now();')).toBe(true);
    expect(IMPURE.test("Date.parse(d.period.to); new Date(ms).toISOString(); import('node:path')")).toBe(false);
  });
});

describe('src/output', () => {
  const files = sourceFiles();

  it('loads no module from another folder of src/ (types aside)', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files.flatMap((f) => importsOutside(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it("keeps the digest's and the report's renderers pure: no clock, no process, no files or network", () => {
    const renderers = files.filter((f) => /[/\\](digest|report)[/\\]/.test(f));
    expect(renderers.length).toBeGreaterThan(10);
    expect(renderers.filter((f) => IMPURE.test(readFileSync(f, 'utf8'))).map((f) => path.relative(OUTPUT, f))).toEqual(
      [],
    );
  });
});
