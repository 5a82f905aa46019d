// A source module bundled for a child process (the CLI bundle does not emit its modules one by one).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { tempDir } from './temp-dir.js';

// The checkout, computed here rather than taken from cli.js: that one needs dist/, and integration files need no build.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles `src/...ts` into an ES module in a temp folder (removed with it) and returns its file URL. */
export async function childModule(entry: string): Promise<string> {
  const outfile = path.join(tempDir('rf-child-'), `${path.basename(entry, '.ts')}.mjs`);
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'silent',
  });
  return pathToFileURL(outfile).href;
}
