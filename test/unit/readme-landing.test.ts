// The README stays a landing page: at most 300 lines, the two quick-start commands word for word, an install
// step that says why the first install is slow, and every relative link pointing at a file of the repository.
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

  it('the quick start is exactly its two commands', () => {
    const block = /^## Quick start\n\n```sh\n([\s\S]*?)```/m.exec(readme)?.[1] ?? '';
    expect(
      block
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '')),
    ).toEqual(['npm ci && npx recall-feed feed --sandbox', 'npm ci && npm test']);
  });

  it('the install section says what makes the first npm ci slow, what it needs and how to see progress', () => {
    const install = /^## Install\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
    // The native module of package.json's dependencies, compiled by its install script when no binary is downloaded.
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: object };
    expect(Object.keys(pkg.dependencies)).toContain('better-sqlite3');
    expect(install).toMatch(/better-sqlite3/);
    expect(install).toMatch(/compiled from source/);
    for (const tool of ['python3', 'make', 'C++ compiler']) expect(install).toContain(tool);
    expect(install).toContain('npm ci --foreground-scripts');
    expect(install).toMatch(/minutes/);
  });

  it('links only to files that exist in the repository', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1] as string)
      .filter((t) => !/^[a-z]+:/i.test(t));
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => !existsSync(path.join(root, t)))).toEqual([]);
  });
});
