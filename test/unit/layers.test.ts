// The layers of src/ (cli -> jobs -> runtime -> libraries): no upward or sideways import, no cycle, no crowded folder.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allFormats } from '../../src/output/format-registry.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/**
 * Lower layers never import higher ones; libraries (api, output, filters, archive, match, actions, sandbox) are last.
 * src/mcp is a second front end beside src/cli: the MCP server over the same jobs.
 */
const RANK: Record<string, number> = { cli: 0, mcp: 0, jobs: 1, runtime: 2 };
const LIBRARY_RANK = 3;

/**
 * The modules of src/jobs that more than one job runs, each named for what it shares. A job imports another
 * job's folder only through one of these.
 */
const SHARED_JOB_MODULES = new Set(['watch', 'matching', 'contracts']);

const MAX_SHARE = 0.3;

interface Edge {
  from: string;
  to: string;
}

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]*)\1/g;

function sourceFiles(dir = SRC, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return sourceFiles(path.join(dir, e.name), r);
    return e.name.endsWith('.ts') ? [r] : [];
  });
}

/** Every relative import (static, re-export, dynamic, type-only) between files of src/, as paths below src/. */
function importEdges(files: string[], read: (file: string) => string): Edge[] {
  const known = new Set(files);
  return files.flatMap((from) =>
    [...read(from).matchAll(SPEC)].flatMap((m) => {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), m[2]!)).replace(/\.js$/, '.ts');
      return known.has(to) ? [{ from, to }] : [];
    }),
  );
}

function layerOf(file: string): { rank: number; top: string; job?: string } {
  const [top, sub] = file.split('/');
  if (!file.includes('/')) return { rank: LIBRARY_RANK, top: '.' }; // src/index.ts: the library's entry
  const rank = RANK[top!] ?? LIBRARY_RANK;
  return top === 'jobs' && sub !== undefined && file.split('/').length > 2
    ? { rank, top: top!, job: sub }
    : { rank, top: top! };
}

/** Imports that go up a layer, or sideways from one job to another that is not a shared module. */
function layerViolations(edges: Edge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const a = layerOf(from);
    const b = layerOf(to);
    if (b.rank < a.rank) return [`upward: ${from} -> ${to}`];
    if (a.job !== undefined && b.job !== undefined && a.job !== b.job && !SHARED_JOB_MODULES.has(b.job))
      return [`sideways between jobs: ${from} -> ${to}`];
    return [];
  });
}

/** Each import cycle, as its files (Tarjan's strongly connected components of more than one file, or a self-import). */
function importCycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** Every relative import and re-export of a file, with whether it brings in types only (`import type`, `export type`). */
function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const out: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      out.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) out.push({ spec: arg.text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      out.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out.filter((i) => i.spec.startsWith('.'));
}

/** Whether a module holds plain types only: interfaces, type aliases and type-only imports or exports, no code. */
function plainTypes(text: string): boolean {
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  return source.statements.every(
    (s) =>
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s) ||
      (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) ||
      (ts.isExportDeclaration(s) && s.isTypeOnly),
  );
}

/**
 * What src/output imports from outside itself that it may not: renderers import nothing outside src/output but
 * plain types, brought in type-only from a module that holds nothing else (no health computed, no archive opened).
 */
function outputLeaks(files: string[], read: (file: string) => string): string[] {
  const known = new Set(files);
  return files
    .filter((f) => f.startsWith('output/'))
    .flatMap((from) =>
      importsOf(read(from)).flatMap(({ spec, typeOnly }) => {
        const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '.ts');
        if (to.startsWith('output/') || !known.has(to)) return [];
        if (!typeOnly) return [`code: ${from} -> ${to}`];
        return plainTypes(read(to)) ? [] : [`types from a module with code: ${from} -> ${to}`];
      }),
    );
}

/**
 * What breaks src/mcp's isolation: a module other than the `mcp` command importing it, the command importing it
 * other than type-only or by import() (the help bundles every command definition), src/mcp importing src/cli, or
 * the MCP SDK imported outside src/mcp (every other command starts without it).
 */
function mcpLeaks(files: string[], read: (file: string) => string): string[] {
  return files.flatMap((from) => {
    const text = read(from);
    const problems: string[] = [];
    if (!from.startsWith('mcp/') && /(?:from|import\()\s*['"]@modelcontextprotocol\//.test(text))
      problems.push(`the MCP SDK outside src/mcp: ${from}`);
    const statics = new Set(
      [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
    );
    for (const { spec } of importsOf(text)) {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, '.ts');
      if (to.startsWith('mcp/') && !from.startsWith('mcp/') && from !== 'cli/commands/mcp.ts')
        problems.push(`into src/mcp: ${from} -> ${to}`);
      if (to.startsWith('mcp/') && from === 'cli/commands/mcp.ts' && statics.has(spec))
        problems.push(`loaded with the help: ${from} -> ${to}`);
      if (from.startsWith('mcp/') && to.startsWith('cli/')) problems.push(`src/mcp into src/cli: ${from} -> ${to}`);
    }
    // A module both imported and import()ed is one problem.
    return [...new Set(problems)];
  });
}

/** Lines per top folder of src/ (files at the root of src/ counted under '.'). */
function linesPerFolder(files: string[], read: (file: string) => string): Map<string, number> {
  const lines = new Map<string, number>();
  for (const f of files) {
    const top = f.includes('/') ? f.split('/')[0]! : '.';
    lines.set(top, (lines.get(top) ?? 0) + read(f).split('\n').length);
  }
  return lines;
}

/** What is wrong with the sizes: a folder above MAX_SHARE of all lines, or src/cli not the smallest layer. */
function sizeProblems(lines: Map<string, number>): string[] {
  const total = [...lines.values()].reduce((a, b) => a + b, 0);
  const problems = [...lines]
    .filter(([, n]) => n > total * MAX_SHARE)
    .map(([top, n]) => `src/${top} holds ${((100 * n) / total).toFixed(1)}% of the lines`);
  const cli = lines.get('cli') ?? 0;
  for (const other of ['jobs', 'runtime']) {
    if (cli >= (lines.get(other) ?? 0)) problems.push(`src/cli (${cli} lines) is not smaller than src/${other}`);
  }
  return problems;
}

/** The output decision stays in the shell: files of src/jobs that name a format, and files below src/cli importing commander. */
function shellLeaks(files: string[], read: (file: string) => string): string[] {
  const names = allFormats().flatMap((f) => [f.name, ...f.aliases]);
  const named = new RegExp(`(['"\`])(?:${names.join('|')})\\1`);
  return files.flatMap((f) => {
    const text = read(f);
    const out: string[] = [];
    if (f.startsWith('jobs/') && named.test(text)) out.push(`${f} names an output format`);
    if (/^(jobs|runtime)\//.test(f) && /from\s+['"](?:commander|@commander-js\/[^'"]+)['"]/.test(text))
      out.push(`${f} imports commander`);
    return out;
  });
}

describe('the checks themselves', () => {
  const edges = (pairs: [string, string][]) => pairs.map(([from, to]) => ({ from, to }));

  it('finds an upward import, and a sideways one between jobs that are not shared modules', () => {
    expect(
      layerViolations(
        edges([
          ['runtime/session.ts', 'jobs/feed/export.ts'],
          ['api/client.ts', 'runtime/context.ts'],
          ['jobs/match/run-match.ts', 'jobs/cases/act.ts'],
          ['jobs/match/run-match.ts', 'jobs/watch/watch.ts'],
          ['cli/commands/feed.ts', 'jobs/feed/run-feed.ts'],
          ['cli/commands/feed.ts', 'runtime/context.ts'],
          ['jobs/feed/export.ts', 'output/renderer.ts'],
        ]),
      ),
    ).toEqual([
      'upward: runtime/session.ts -> jobs/feed/export.ts',
      'upward: api/client.ts -> runtime/context.ts',
      'sideways between jobs: jobs/match/run-match.ts -> jobs/cases/act.ts',
    ]);
  });

  it('finds a cycle, and none in a tree', () => {
    expect(
      importCycles(
        edges([
          ['a.ts', 'b.ts'],
          ['b.ts', 'c.ts'],
          ['c.ts', 'a.ts'],
          ['c.ts', 'd.ts'],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      importCycles(
        edges([
          ['a.ts', 'b.ts'],
          ['a.ts', 'c.ts'],
          ['b.ts', 'c.ts'],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads static, type-only, re-exported and dynamic imports', () => {
    // Built from parts, so that no tool that rewrites this repo's imports mistakes these for real ones.
    const from = (spec: string) => `from '${spec}'`;
    const text: Record<string, string> = {
      'jobs/a/x.ts': `import { a } ${from('../../runtime/y.js')};\nimport type { B } ${from('./z.js')};\n`,
      'jobs/a/z.ts': `export * ${from('../../api/w.js')};\nconst m = await import(${"'"}../b/v.js');\n`,
      'runtime/y.ts': '',
      'api/w.ts': '',
      'jobs/b/v.ts': '',
    };
    expect(importEdges(Object.keys(text), (f) => text[f]!)).toEqual(
      edges([
        ['jobs/a/x.ts', 'runtime/y.ts'],
        ['jobs/a/x.ts', 'jobs/a/z.ts'],
        ['jobs/a/z.ts', 'api/w.ts'],
        ['jobs/a/z.ts', 'jobs/b/v.ts'],
      ]),
    );
  });

  it('finds what src/output takes from outside itself: code, or types from a module that has code', () => {
    const text: Record<string, string> = {
      'output/a.ts': [
        "import type { H } from '../archive/health.js';",
        "import { x } from '../archive/plain.js';",
        "import type { P } from '../archive/plain.js';",
        "import type { Q } from './b.js';",
        "export type { R } from '../archive/index.js';",
        "type S = import('../archive/health.js').H;",
        "const m = await import('../jobs/x.js');",
      ].join('\n'),
      'output/b.ts': "import { y } from './c.js';",
      'output/c.ts': 'export const y = 1;',
      'archive/health.ts': 'export interface H { a: number }\nexport function computeHealth() {}',
      'archive/plain.ts': "import type { H } from './health.js';\nexport interface P { h: H }\nexport type T = P;",
      'archive/index.ts': "export * from './health.js';",
      'jobs/x.ts': '',
    };
    expect(outputLeaks(Object.keys(text), (f) => text[f]!)).toEqual([
      'types from a module with code: output/a.ts -> archive/health.ts',
      'code: output/a.ts -> archive/plain.ts',
      'types from a module with code: output/a.ts -> archive/index.ts',
      'types from a module with code: output/a.ts -> archive/health.ts',
      'code: output/a.ts -> jobs/x.ts',
    ]);
  });

  it("finds what breaks src/mcp's isolation", () => {
    const from = (spec: string) => `from '${spec}'`;
    const text: Record<string, string> = {
      'cli/commands/mcp.ts': `import type { P } ${from('../../mcp/plan.js')};\nimport { s } ${from('../../mcp/serve.js')};\nconst m = await import('../../mcp/serve.js');\n`,
      'cli/commands/feed.ts': `import { x } ${from('../../mcp/server.js')};\n`,
      'jobs/a/b.ts': `import { McpServer } ${from('@modelcontextprotocol/sdk/server/mcp.js')};\n`,
      'mcp/serve.ts': `import { y } ${from('../cli/main.js')};\nimport { z } ${from('@modelcontextprotocol/sdk/server/stdio.js')};\n`,
      'mcp/plan.ts': '',
      'mcp/server.ts': '',
      'cli/main.ts': '',
    };
    expect(mcpLeaks(Object.keys(text), (f) => text[f]!)).toEqual([
      'loaded with the help: cli/commands/mcp.ts -> mcp/serve.ts',
      'into src/mcp: cli/commands/feed.ts -> mcp/server.ts',
      'the MCP SDK outside src/mcp: jobs/a/b.ts',
      'src/mcp into src/cli: mcp/serve.ts -> cli/main.ts',
    ]);
  });

  it('finds a format named in a job, and commander imported below the shell', () => {
    const files: Record<string, string> = {
      'jobs/a/run.ts': "const f = formatNamed('jsonl');",
      'jobs/a/ok.ts': "const note = 'a jsonl file';",
      'runtime/opts.ts': "import { Option } from '@commander-js/extra-typings';",
      'cli/commands/x.ts': "import { Command } from 'commander'; const f = 'csv';",
    };
    expect(shellLeaks(Object.keys(files), (f) => files[f]!)).toEqual([
      'jobs/a/run.ts names an output format',
      'runtime/opts.ts imports commander',
    ]);
  });

  it('finds a crowded folder and a shell bigger than a layer below it', () => {
    const lines = new Map([
      ['cli', 310],
      ['jobs', 250],
      ['runtime', 200],
      ['api', 250],
    ]);
    expect(sizeProblems(lines)).toEqual([
      'src/cli holds 30.7% of the lines',
      'src/cli (310 lines) is not smaller than src/jobs',
      'src/cli (310 lines) is not smaller than src/runtime',
    ]);
    lines.set('cli', 150);
    lines.set('sandbox', 300);
    expect(sizeProblems(lines)).toEqual([]);
  });
});

describe('src/', () => {
  const files = sourceFiles();
  const cache = new Map<string, string>();
  const read = (f: string) => {
    if (!cache.has(f)) cache.set(f, readFileSync(path.join(SRC, f), 'utf8'));
    return cache.get(f)!;
  };
  const edges = importEdges(files, read);

  it('imports run cli -> jobs -> runtime -> libraries, and between jobs only through a shared module', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(layerViolations(edges)).toEqual([]);
  });

  it('src/output imports nothing outside itself but plain types (the renderers are handed plain data)', () => {
    expect(files.filter((f) => f.startsWith('output/digest/')).length).toBeGreaterThan(5);
    expect(outputLeaks(files, read)).toEqual([]);
  });

  it('src/mcp is reached only by the mcp command, lazily; the MCP SDK only from src/mcp', () => {
    expect(files.filter((f) => f.startsWith('mcp/')).length).toBeGreaterThan(5);
    expect(mcpLeaks(files, read)).toEqual([]);
  });

  it('names no output format in src/jobs, and imports commander nowhere below src/cli', () => {
    expect(shellLeaks(files, read)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it('has no folder above 30% of the lines, and src/cli is the smallest of the three layers', () => {
    const lines = linesPerFolder(files, read);
    expect([...lines.keys()]).toEqual(expect.arrayContaining(['cli', 'jobs', 'runtime']));
    expect(sizeProblems(lines)).toEqual([]);
  });

  it('has no file over 300 lines (a module does one thing; a longer one splits)', () => {
    const long = files.filter((f) => read(f).split('\n').length - 1 > 300);
    expect(long).toEqual([]);
  });
});
