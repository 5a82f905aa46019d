// The README stays a landing page: at most 300 lines, the two quick-start commands word for word, an install
// step, and every relative link pointing at a file of the repository.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

describe('README.md', () => {
  it('is at most 300 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('holds the two quick-start commands and an install step', () => {
    expect(readme).toMatch(/^npm ci && npx recall-feed feed --sandbox\b/m);
    expect(readme).toMatch(/^npm ci && npm test\b/m);
    expect(readme).toMatch(/^## Install$/m);
    expect(readme).toContain('npm install -g .');
  });

  it('links only to files that exist in the repository', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] as string)
      .filter((t) => !/^[a-z]+:/i.test(t));
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => !existsSync(path.join(root, t)))).toEqual([]);
  });
});
