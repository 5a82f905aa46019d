// Static import graph of a compiled module: which local files and which packages load before any code runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Static `import ... from '...'`, `export ... from '...'` and bare `import '...'`; dynamic import() is not static.
const STATIC = /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Packages are named without subpaths ('zod/mini' -> 'zod'); node: built-ins are left out. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function staticGraph(entry) {
  const files = new Set();
  const packages = new Set();
  const walk = (file) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(packageName(spec));
    }
  };
  walk(path.resolve(entry));
  return { files: [...files], packages: [...packages].sort() };
}

/** The packages in a list of resolved module URLs (from trace-imports.mjs). */
export function packagesInTrace(urls) {
  const found = new Set();
  for (const url of urls) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) found.add(m[1]);
  }
  return [...found].sort();
}
