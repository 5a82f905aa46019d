// Runs every example of README.md and docs/ (each `console` block, test/helpers/doc-examples.ts) and compares what it shows.
//
// Each command runs in process (runMain) as on a terminal (stdout and stderr are terminals, TERM=dumb: no colours,
// no spinner), on the sandbox of its own `--sandbox`, pinned by RECALL_FEED_SANDBOX_NOW to DOCS_NOW unless the
// block says otherwise. What is compared is what a terminal shows: stdout and stderr in the order written, line
// for line. Each page has one temporary folder that stands for both the working folder and the home folder:
// the files the docs define (`<!-- doctest: file NAME -->`) are written there, relative paths and `~/` point
// there, and the folder's path is taken out of the output again. Only what must vary is normalised before
// comparing: the port of a sandbox's URL and the latency `health` measures.
//
// After a deliberate change of output: UPDATE_DOCS_EXAMPLES=1 npx vitest run test/behaviour/docs-examples.test.ts
// rewrites the expected lines in place (docs/development.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Block, type Page, commandWords, commandsOf, readPages, rewritePage } from '../helpers/doc-examples.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The instant the docs' examples are pinned to; docs/sandbox-and-filters.md names it. */
const DOCS_NOW = '2026-06-01T12:00:00Z';
const UPDATE = process.env.UPDATE_DOCS_EXAMPLES === '1';
/** The flags whose value is a file: a relative one is taken in the page's folder. */
const FILE_FLAGS = new Set(['-o', '--output', '--catalog', '--state', '--db', '--metrics-file', '--keys']);

const pages = readPages(ROOT);

/** Every file the docs define, by name; one name is one content across all pages. */
function definedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const page of pages)
    for (const block of page.blocks) {
      const name = block.directives.file;
      if (name === undefined) continue;
      const content = `${block.body.join('\n')}\n`;
      if (files.has(name) && files.get(name) !== content)
        throw new Error(`${page.name}:${block.line}: ${name} is defined twice, differently`);
      files.set(name, content);
    }
  return files;
}

function inFolder(value: string, dir: string): string {
  if (value.startsWith('~/')) return path.join(dir, value.slice(2));
  if (value === '-' || path.isAbsolute(value) || /^[a-z]+:/i.test(value)) return value;
  return path.join(dir, value);
}

/** The arguments with file paths taken in the page's folder (the folder is the working one; no chdir in a worker). */
function localArgs(args: string[], dir: string): string[] {
  return args.map((arg, i) => {
    if (arg.startsWith('~/')) return inFolder(arg, dir);
    const eq = /^(--[a-z-]+)=(.*)$/.exec(arg);
    if (eq && FILE_FLAGS.has(eq[1] as string)) return `${eq[1]}=${inFolder(eq[2] as string, dir)}`;
    return FILE_FLAGS.has(args[i - 1] as string) ? inFolder(arg, dir) : arg;
  });
}

/** What the terminal showed, with the page's folder written as the docs write it. */
function shownLines(text: string, dir: string): string[] {
  const shown = text.replaceAll(`${dir}/.local/share`, '~/.local/share').replaceAll(`${dir}/`, '');
  return shown === '' ? [] : shown.replace(/\n$/, '').split('\n');
}

/** What must vary from run to run: a sandbox's port, the latency of a health check. */
function normalised(lines: string[]): string {
  return lines
    .join('\n')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>')
    .replace(/\(HTTP (\d+), \d+ ms/g, '(HTTP $1, <n> ms')
    .replace(/"latency_ms":\d+/g, '"latency_ms":<n>');
}

async function runCommand(text: string, block: Block, dir: string, where: string) {
  const words = commandWords(text, where);
  const env: Record<string, string> = {
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, '.local/share'),
    RECALL_FEED_CONFIG_DIR: path.join(dir, '.config/recall-feed'),
    RECALL_FEED_SANDBOX_NOW: DOCS_NOW,
    // An example that would reach the real API (no --sandbox) reaches a closed loopback port instead.
    RECALL_FEED_BASE_URL: 'http://127.0.0.1:9',
    ...block.directives.env,
  };
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const word = words.shift() as string;
    env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
  }
  if (words.shift() !== 'recall-feed') throw new Error(`${where}: an example runs recall-feed, not: ${text}`);
  let shown = '';
  const result = await runMain(localArgs(words, dir), {
    env,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    columns: block.directives.columns ?? 100,
    onOutput: (_stream, chunk) => {
      shown += chunk;
    },
  });
  return { code: result.code, lines: shownLines(shown, dir) };
}

const files = definedFiles();
const examples = pages.filter((page) => page.blocks.some((b) => b.lang === 'console'));

describe.each(examples.map((page) => [page.name, page] as const))('%s', (_name, page: Page) => {
  const dir = tempDir('rf-docs-');
  for (const [name, content] of files) writeFileSync(path.join(dir, name), content);
  const updates = new Map<Block, string[][]>();

  afterAll(() => {
    if (UPDATE && updates.size > 0) writeFileSync(path.join(ROOT, page.name), rewritePage(page, updates));
  });

  for (const block of page.blocks.filter((b) => b.lang === 'console')) {
    const where = `${page.name}:${block.line}`;
    const commands = commandsOf(block, where);
    it(`${where} $ ${commands.map((c) => c.text).join(' ; ')}`, async () => {
      const outputs: string[][] = [];
      for (const command of commands) {
        const { code, lines } = await runCommand(command.text, block, dir, where);
        const same = normalised(lines) === normalised(command.expected);
        outputs.push(same ? command.expected : lines);
        expect({ code, shown: lines.join('\n') }, `$ ${command.text}`).toMatchObject({
          code: block.directives.exit ?? 0,
        });
        if (!UPDATE) expect(normalised(lines), `$ ${command.text}`).toBe(normalised(command.expected));
      }
      if (outputs.some((lines, n) => lines !== commands[n]?.expected)) updates.set(block, outputs);
    });
  }
});

describe('the README', () => {
  it('shows the history of recall ids an example of the docs shows with their history', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const asked = [...readme.matchAll(/recall-feed show (\d+) --history/g)].map((m) => m[1]);
    const shownWithHistory = new Set(
      examples.flatMap((page) =>
        page.blocks
          .filter((b) => b.lang === 'console')
          .flatMap((b) => commandsOf(b, page.name))
          .filter(
            (c) => /^recall-feed show \d+ --history/.test(c.text) && c.expected.some((l) => l.startsWith('version 2')),
          )
          .map((c) => /show (\d+)/.exec(c.text)?.[1]),
      ),
    );
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((id) => !shownWithHistory.has(id))).toEqual([]);
  });
});
