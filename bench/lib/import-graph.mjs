// Which packages a run of the CLI loaded: module URLs from a loader trace, mapped through the bundle's chunks to the packages in them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './common.mjs';

/** The package a path inside node_modules belongs to ('zod/v4/core/x.js' -> 'zod'); undefined outside. */
function packageOf(file) {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/**
 * What each file of the CLI bundle holds: absolute path -> Map(package -> bytes), from esbuild's metafile
 * of the same build options (the same inputs give the same chunk names). Undefined when a chunk it names
 * is missing, i.e. dist/ was built from other sources: run `npm run build`.
 */
export async function bundleContents() {
  const [{ cliBuildOptions }, esbuild] = await Promise.all([import('../../scripts/build.mjs'), import('esbuild')]);
  const { metafile } = await esbuild.build({ ...cliBuildOptions, write: false, metafile: true, logLevel: 'silent' });
  const contents = new Map();
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    const file = path.join(ROOT, output);
    if (!existsSync(file)) return undefined;
    const packages = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const name = packageOf(input);
      if (name && bytesInOutput > 0) packages.set(name, (packages.get(name) ?? 0) + bytesInOutput);
    }
    contents.set(file, packages);
  }
  return contents;
}

/**
 * The packages in a list of resolved module URLs (from trace-imports.mjs), with the bytes of each that were
 * loaded: a package resolved from node_modules counts by name (bytes unknown: 0), a bundle chunk by what it holds.
 */
export function packagesLoaded(urls, contents) {
  const found = new Map();
  for (const url of new Set(urls)) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    const name = packageOf(file);
    if (name) found.set(name, found.get(name) ?? 0);
    for (const [pkg, bytes] of contents?.get(file) ?? []) found.set(pkg, (found.get(pkg) ?? 0) + bytes);
  }
  return found;
}
