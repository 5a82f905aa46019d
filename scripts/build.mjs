// Builds dist/: the library with tsc (JavaScript and .d.ts), and the command-line tool as an esbuild bundle.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * commander requires node:child_process at load, only to spawn executable subcommands (we have none), and
 * loading it costs about 3 ms, a tenth of `--help`. For commander alone it becomes a stub that loads the
 * real module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents:
        "let real; module.exports = { spawn: (...args) => (real ??= require('child_process')).spawn(...args) };",
      loader: 'js',
    }));
  },
};

/**
 * The client takes three classes from undici (src/api/http-agent.ts: Agent, EnvHttpProxyAgent, Pool) and the
 * `request` every dispatcher gets. undici's index loads all of it besides: fetch, WebSocket, EventSource, the
 * caches, the mocks, and its cookies touch Node's own copy of undici. Measured on a one-page run: about 1 MB
 * of JavaScript to compile and some 30 ms. The bundle's `undici` is this entry instead: the same modules the
 * index uses for those classes, the same `Object.assign(Dispatcher.prototype, api)`, nothing else. (The
 * version is pinned: these paths are undici 7's own files, as its index.js requires them.)
 */
const UNDICI_DISPATCHERS = `
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
Object.assign(Dispatcher.prototype, require('undici/lib/api'));
module.exports = {
  get Agent() { return require('undici/lib/dispatcher/agent'); },
  get EnvHttpProxyAgent() { return require('undici/lib/dispatcher/env-http-proxy-agent'); },
  get Pool() { return require('undici/lib/dispatcher/pool'); },
};
`;
const undiciDispatchersOnly = {
  name: 'undici-dispatchers-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: 'undici', namespace: 'undici-dispatchers' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-dispatchers' }, () => ({
      contents: UNDICI_DISPATCHERS,
      loader: 'js',
      resolveDir: ROOT,
    }));
  },
};

/**
 * @commander-js/extra-typings gives commander's declarations their types (src/cli); at run time it is only
 * commander re-exported, plus a global program we never use. The bundles take commander itself: the
 * start-up loads no more than before.
 */
const typedCommanderIsCommander = { '@commander-js/extra-typings': 'commander' };

/**
 * The CLI bundle: dist/cli/main.js and dist/cli/process-context.js (what bin/recall-feed.cjs imports), and
 * the chunks they share or load with import(). Splitting keeps each command's code, and the packages only
 * it needs, out of the start-up: `--help` parses a few hundred KB, not the whole 3 MB.
 */
export const cliBuildOptions = {
  absWorkingDir: ROOT,
  // Named outputs: the bundle's file names stay what bin/recall-feed.cjs loads wherever the sources live.
  entryPoints: [
    { in: 'src/cli/main.ts', out: 'main' },
    { in: 'src/runtime/process-context.ts', out: 'process-context' },
  ],
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
  alias: typedCommanderIsCommander,
  plugins: [lazyChildProcessForCommander, undiciDispatchersOnly],
  logLevel: 'warning',
};

/** The CommonJS front: bin/recall-feed.cjs answers help from it, and loads no ES module. */
export const FRONT = 'dist/cli/front.cjs';

/**
 * The front's bundle: main.ts's program, every command's definition and commander, as one CommonJS file
 * (Node's ES module loader alone costs about a third of `node -e 0`). What a command imports to run, and
 * main()'s error mapping, stay behind import() and out of it: the front never runs a command, it hands the
 * arguments to the ES module bundle instead.
 */
export const frontBuildOptions = {
  absWorkingDir: ROOT,
  stdin: {
    contents:
      "export { answerWithoutRunning } from './src/cli/main.js'; export { helpContext } from './src/runtime/process-context.js';",
    resolveDir: ROOT,
    loader: 'ts',
    sourcefile: 'front.ts',
  },
  outfile: FRONT,
  bundle: true,
  // Less to parse: measured 5 % faster for `feed --help`. The front never runs a command, so no stack
  // trace of a failed run points into it.
  minify: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  alias: typedCommanderIsCommander,
  plugins: [
    lazyChildProcessForCommander,
    {
      name: 'commands-only',
      setup(build) {
        // main.ts's import() of a command's definition is bundled; every other import() is left out.
        build.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          if (/src[\\/]cli[\\/]main\.ts$/.test(args.importer) && args.path.startsWith('./commands/')) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
  logLevel: 'warning',
};

export async function build() {
  // A clean slate: no chunk of an earlier build, and no file an older layout emitted, is left behind.
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  await esbuild.build(cliBuildOptions);
  await esbuild.build(frontBuildOptions);
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
