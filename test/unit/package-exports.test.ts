// package.json's exports, as Node resolves them for a CommonJS consumer: require('recall-feed') and
// require('recall-feed/sandbox') find the ES module (loaded by require() on a Node.js that loads ES modules so), where
// they ended in a misleading ERR_PACKAGE_PATH_NOT_EXPORTED. The package is installed into a temp folder as npm would
// lay it out: its package.json, and a stand-in for each entry file (dist/ may not be built).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The package as installed in a consumer's node_modules, each entry an ES module saying which it is. */
function installed(): { consumer: string; pkg: string } {
  const consumer = tempDir('rf-exports-');
  const pkg = path.join(consumer, 'node_modules', 'recall-feed');
  mkdirSync(path.join(pkg, 'dist', 'sandbox'), { recursive: true });
  copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  writeFileSync(path.join(pkg, 'dist', 'index.js'), "export const entry = 'library';\n");
  writeFileSync(path.join(pkg, 'dist', 'sandbox', 'index.js'), "export const entry = 'sandbox';\n");
  return { consumer, pkg };
}

describe("package.json's exports", () => {
  it('resolve for require(): the same ES module files as for import', () => {
    const { consumer, pkg } = installed();
    const require = createRequire(path.join(consumer, 'service.cjs'));
    expect(require.resolve('recall-feed')).toBe(path.join(pkg, 'dist', 'index.js'));
    expect(require.resolve('recall-feed/sandbox')).toBe(path.join(pkg, 'dist', 'sandbox', 'index.js'));
  });

  it('load with require() where Node.js loads ES modules so (20.19 and later)', () => {
    const features = process.features as { require_module?: boolean };
    if (!features.require_module) return;
    const { consumer } = installed();
    const require = createRequire(path.join(consumer, 'service.cjs'));
    expect(require('recall-feed').entry).toBe('library');
    expect(require('recall-feed/sandbox').entry).toBe('sandbox');
  });

  it('list types first (TypeScript) and default last (Node.js takes the first condition that applies)', () => {
    const { exports } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
    };
    expect(Object.keys(exports)).toEqual(['.', './sandbox']);
    for (const entry of Object.values(exports)) expect(Object.keys(entry)).toEqual(['types', 'import', 'default']);
  });
});
