// Which packages a run of the CLI loaded: module URLs from a loader trace, mapped through the bundles' files to the packages in them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './common.mjs';

/** The package a path inside node_modules belongs to ('zod/v4/core/x.js' -> 'zod'); undefined outside. */
function packageOf(file) {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/**
 * What each file of the CLI bundles (the ES module chunks and the CommonJS front) holds: absolute path ->
 * Map(package -> bytes), from esbuild's metafiles of the same build options (the same inputs give the same
 * chunk names). Undefined when a file it names is missing, i.e. dist/ was built from other sources: run
 * `npm run build`.
 */
export async function bundleContents() {
  const [{ cliBuildOptions, frontBuildOptions }, esbuild] = await Promise.all([
    import('../../scripts/build.mjs'),
    import('esbuild'),
  ]);
  const outputs = {};
  for (const options of [cliBuildOptions, frontBuildOptions]) {
    const { metafile } = await esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' });
    Object.assign(outputs, metafile.outputs);
  }
  const contents = new Map();
  for (const [output, { inputs }] of Object.entries(outputs)) {
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

/** The lines of a trace (trace-imports.mjs), `kind url`, as { kind, url }: `esm` resolved, `read` read as code. */
export function parseTrace(text) {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { kind: line.slice(0, space), url: line.slice(space + 1) };
    });
}

/**
 * The packages in a list of module URLs (from a trace), with the bytes of each that were loaded: a package
 * loaded from node_modules counts by name (bytes unknown: 0), a bundle file by what it holds.
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
