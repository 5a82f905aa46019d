// `npm run docs`: writes the generated reference pages (docs/commands.md, docs/exit-codes.md, docs/settings-table.md) from the sources.
// src/cli/reference.ts is bundled in memory with esbuild (as the build does), so no build is needed first.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { cliBuildOptions } from './build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The pages by their path under docs/, as the sources make them now. */
export async function generatedDocs() {
  // Inside the project, so that the bundle's imports of packages resolve to its node_modules.
  const outfile = path.join(ROOT, 'node_modules', '.cache', `recall-feed-docs-${process.pid}.mjs`);
  try {
    await esbuild.build({
      ...cliBuildOptions,
      entryPoints: ['src/cli/reference.ts'],
      outdir: undefined,
      outfile,
      splitting: false,
      packages: 'external',
      // docs/exit-codes.md names error classes: as the sources spell them, never as the bundle renames them.
      keepNames: true,
    });
    return await (await import(pathToFileURL(outfile).href)).generatedDocs();
  } finally {
    rmSync(outfile, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, text] of Object.entries(await generatedDocs())) {
    writeFileSync(path.join(ROOT, 'docs', name), text);
    console.error(`wrote docs/${name}`);
  }
}
