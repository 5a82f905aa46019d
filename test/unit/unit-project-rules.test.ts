// Keeps the unit project quick and honest: no unit file reaches PostgreSQL (the unit project starts no cluster,
// so its PostgreSQL half would be skipped without a word), spawns a process, or runs the built CLI.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const UNIT = import.meta.dirname;

/** Modules a unit file may not import, and where a file that needs one belongs (test/README.md). */
const FORBIDDEN: [RegExp, string][] = [
  [/\/helpers\/(postgres|archive-engines|archive-edit)\.js$/, 'test/integration/ (it has the PostgreSQL cluster)'],
  [/^(node:)?child_process$|^execa$/, 'test/integration/ (real processes)'],
  [/\/helpers\/cli\.js$/, 'test/e2e/ (the built CLI, spawned)'],
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every module specifier a file imports, statically or with import(). */
function imports(source: string): string[] {
  const found = [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)];
  return found.map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

describe('the unit project', () => {
  it('finds the imports it checks (the scan itself works)', () => {
    expect(imports("import { a } from '../helpers/postgres.js';\nconst m = await import('execa');")).toEqual([
      '../helpers/postgres.js',
      'execa',
    ]);
  });

  it('holds no file that needs PostgreSQL, a child process or the built CLI', () => {
    const misplaced: string[] = [];
    // This file names the forbidden imports in its own examples.
    const files = testFiles(UNIT).filter((f) => f !== import.meta.filename);
    // A scan that found nothing would pass whatever the unit files import.
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      for (const spec of imports(readFileSync(file, 'utf8'))) {
        const rule = FORBIDDEN.find(([pattern]) => pattern.test(spec));
        if (rule) misplaced.push(`${path.relative(UNIT, file)} imports ${spec}: move it to ${rule[1]}`);
      }
    }
    expect(misplaced).toEqual([]);
  });
});
