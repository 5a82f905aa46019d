// A source module bundled for a child process (the CLI bundle does not emit its modules one by one).
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { tempDir } from './temp-dir.js';

// The checkout, computed here rather than taken from cli.js: that one needs dist/, and integration files need no build.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles `src/...ts` into an ES module in a temp folder (removed with it) and returns its file URL. */
export async function childModule(entry: string): Promise<string> {
  const outfile = path.join(tempDir('rf-child-'), `${path.basename(entry, '.ts')}.mjs`);
  await bundle(outfile, { entryPoints: [entry] });
  return pathToFileURL(outfile).href;
}

/**
 * A script (TypeScript text importing from `./src/...`) that runs the CLI from the sources, bundled to `outfile` beside
 * a link to the checkout's node_modules, from which better-sqlite3 (native, not bundled) loads.
 */
export async function bundleCliScript(outfile: string, contents: string, sourcefile: string): Promise<void> {
  await bundle(outfile, {
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile },
    external: ['better-sqlite3'],
    alias: { '@commander-js/extra-typings': 'commander' },
  });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(path.dirname(outfile), 'node_modules'));
}

async function bundle(outfile: string, what: esbuild.BuildOptions): Promise<void> {
  await esbuild.build({
    absWorkingDir: ROOT,
    ...what,
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
}
