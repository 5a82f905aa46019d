// Builds dist/: the library with tsc (JavaScript and .d.ts), and the command-line tool as an esbuild bundle.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
const exported = {
  Agent: () => require('undici/lib/dispatcher/agent'),
  EnvHttpProxyAgent: () => require('undici/lib/dispatcher/env-http-proxy-agent'),
  Pool: () => require('undici/lib/dispatcher/pool'),
};
// Anything else the sources take from undici would be undefined here, with types that say otherwise: it fails
// loudly instead, on its first use (the end-to-end tests run the bundle).
module.exports = new Proxy({}, {
  get(_, name) {
    if (typeof name !== 'string' || name === '__esModule') return undefined;
    if (!Object.hasOwn(exported, name)) {
      throw new Error('undici.' + name + ' is not in the bundle: add it to UNDICI_DISPATCHERS in scripts/build.mjs');
    }
    return exported[name]();
  },
});
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
 * esbuild splits the bundle by "which entry points reach this module", and every import() is an entry point:
 * the services nearly every command runs (settings, session, config store, API client, renderers, output
 * files) are reached from so many different sets of entry points that they came out as some 40 small chunks,
 * each one more file to read, compile and link on every run. The core is these services and everything
 * they import. Each of our entry points (main.ts, process-context.ts, every module loaded with import())
 * gets one more import, of the core, after its own imports: every core module is then reached from the same
 * entry points, and esbuild puts them all in one chunk. main.js loads it at start-up, so a command's import()
 * finds it loaded (it holds declarations only: no module of it does anything when it loads). The core holds
 * no package (the build fails if it would): packages keep their own chunks, loaded only where imported.
 */
// The roots (each one loaded with import() somewhere); what they import statically (settings.ts, output-target.ts,
// write-output.ts...) is in the core without being named.
const CORE_ROOTS = [
  'src/runtime/session.ts',
  'src/runtime/config/store.ts',
  'src/runtime/ops/ops-settings.ts',
  'src/api/client.ts',
  // The registry and the shipped formats' renderers (each format's loader imports its own: one chunk for all).
  'src/output/format-registry.ts',
  'src/output/table.ts',
  'src/output/jsonl.ts',
  'src/output/json.ts',
  'src/output/csv.ts',
  'src/output/parquet.ts',
  'src/runtime/files/record-output.ts',
];
const CORE = 'core:services';

const oneCoreChunk = {
  name: 'one-core-chunk',
  setup(build) {
    // Without splitting (scripts/docs.mjs bundles one file) there are no chunks to gather.
    if (!build.initialOptions.splitting) return;
    let core;
    let entries;
    build.onStart(async () => {
      // The import graph, from a build of the same options without this plugin.
      const plugins = build.initialOptions.plugins.filter((p) => p.name !== 'one-core-chunk');
      const { metafile } = await esbuild.build({
        ...build.initialOptions,
        plugins,
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const { inputs } = metafile;
      core = new Set();
      const visit = (file) => {
        if (core.has(file)) return;
        core.add(file);
        for (const i of inputs[file].imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
      };
      const gone = CORE_ROOTS.filter((root) => !inputs[root]);
      if (gone.length) throw new Error(`CORE_ROOTS names what the bundle does not hold: ${gone.join(', ')}`);
      for (const root of CORE_ROOTS) visit(root);
      const packages = [
        ...new Set(
          [...core]
            .filter((f) => !f.startsWith('src/'))
            .map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? f),
        ),
      ];
      if (packages.length) {
        // Every command would load them at start-up: import() them where they are used instead.
        throw new Error(`the core chunk (CORE_ROOTS in scripts/build.mjs) would hold packages: ${packages.join(', ')}`);
      }
      const entryFiles = build.initialOptions.entryPoints.map((e) => e.in ?? e);
      const dynamicTargets = Object.values(inputs).flatMap((i) =>
        i.imports.filter((m) => m.kind === 'dynamic-import' && !m.external).map((m) => m.path),
      );
      entries = new Set([...entryFiles, ...dynamicTargets].filter((f) => f.startsWith('src/')));
    });
    build.onResolve({ filter: /^core:services$/ }, () => ({ path: CORE, namespace: 'core' }));
    build.onLoad({ filter: /.*/, namespace: 'core' }, () => ({
      contents: CORE_ROOTS.map((f) => `import './${f}';`).join('\n'),
      loader: 'js',
      resolveDir: ROOT,
    }));
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const rel = path.relative(ROOT, args.path).split(path.sep).join('/');
      if (!entries.has(rel)) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: `${source}\nimport '${CORE}';\n`, loader: 'ts' };
    });
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
  plugins: [lazyChildProcessForCommander, undiciDispatchersOnly, oneCoreChunk],
  logLevel: 'warning',
};

/** The CommonJS front: bin/recall-feed.cjs answers help from it, and loads no ES module. */
export const FRONT = 'dist/cli/front.cjs';

/**
 * The front's bundle: main.ts's program, every command's definition (the registry's) and commander, as one CommonJS file
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
        // The registry's import() of a command's definition is bundled; every other import() is left out.
        build.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          if (/src[\\/]cli[\\/]registry\.ts$/.test(args.importer) && args.path.startsWith('./commands/'))
            return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
  logLevel: 'warning',
};

/**
 * The library's tsc (dist/index.js, dist/sandbox/...). Its source maps carry the sources they map (sourcesContent):
 * src/ is not in the package, and a map naming `../src/index.ts` alone pointed at nothing. With them a user's debugger
 * shows the TypeScript, and a stack trace printed with `node --enable-source-maps` (the one to ask for in a bug
 * report) names src/ files and lines that match the release's sources. The CLI bundle has no maps: it is not
 * minified, so its stack traces read as they are.
 */
export const TSC_ARGS = ['-p', 'tsconfig.build.json', '--inlineSources'];

export async function build() {
  // A clean slate: no chunk of an earlier build, and no file an older layout emitted, is left behind.
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, ...TSC_ARGS], { cwd: ROOT, stdio: 'inherit' });
  for (const options of [cliBuildOptions, frontBuildOptions]) {
    const { warnings } = await esbuild.build(options);
    // A warning is a bundle that may break at run time (import.meta in the CommonJS front, a file that
    // reached the front and should not have): the build fails rather than ship it.
    if (warnings.length > 0) throw new Error(`esbuild warned ${warnings.length} time(s): see above`);
  }
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
