// Builds dist/: the library with tsc (JavaScript and .d.ts), and the command-line tool as an esbuild bundle.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The CLI bundle: dist/cli/main.js and dist/cli/process-context.js (what bin/recall-feed.js imports), and
 * the chunks they share or load with import(). Splitting keeps each command's code, and the packages only
 * it needs, out of the start-up: `--help` parses a few hundred KB, not the whole 3 MB.
 */
export const cliBuildOptions = {
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/main.ts', 'src/cli/process-context.ts'],
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // commander and proper-lockfile are CommonJS and require() Node's built-ins; an ES module has no
  // `require` of its own ("Dynamic require of node:events is not supported" without this).
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // A native addon cannot be bundled; it loads from node_modules.
  external: ['better-sqlite3'],
  logLevel: 'warning',
};

export async function build() {
  // A clean slate: no chunk of an earlier build, and no file an older layout emitted, is left behind.
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  await esbuild.build(cliBuildOptions);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await build();
  } catch (err) {
    // tsc has printed its diagnostics and esbuild its errors: only say which step failed.
    console.error(`build failed: ${err.message.split('\n')[0]}`);
    process.exitCode = 1;
  }
}
