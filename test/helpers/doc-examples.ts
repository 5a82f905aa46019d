// The documentation's runnable examples: `console` blocks (commands and what they print) and the files they use, read from Markdown.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A marker is an HTML comment on the line before a fence, `<!-- doctest: ... -->`, whose words are directives:
 * - `file <name>`: the block (any language) is a file the examples use, written into each page's folder;
 * - `env NAME=value`: set for every command of the block (RECALL_FEED_SANDBOX_NOW=... to pin another instant);
 * - `columns <n>`: the terminal's width (default 100);
 * - `exit <n>`: the exit code of every command of the block (default 0).
 * A fenced block of language `console` is an example: a line starting `$ ` is a command (a line ending in
 * ` \` continues it), the lines up to the next command are what the terminal shows.
 */
export interface Directives {
  file?: string;
  env: Record<string, string>;
  columns?: number;
  exit?: number;
}

export interface Command {
  /** As written (continuations joined), without `$ `. */
  text: string;
  /** The lines of the block the command takes (its continuations included). */
  lines: string[];
  expected: string[];
}

export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  directives: Directives;
  /** 0-based indexes into the page's lines: the first and last line inside the fences. */
  from: number;
  to: number;
  body: string[];
}

export interface Page {
  /** Relative to the repository, e.g. docs/matching.md. */
  name: string;
  lines: string[];
  blocks: Block[];
}

export function parseDirectives(text: string, where: string): Directives {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const out: Directives = { env: {} };
  for (let i = 0; i < words.length; i += 2) {
    const [key, value] = [words[i], words[i + 1]];
    if (value === undefined) throw new Error(`${where}: doctest directive ${key} needs a value`);
    if (key === 'file') out.file = value;
    else if (key === 'columns') out.columns = Number(value);
    else if (key === 'exit') out.exit = Number(value);
    else if (key === 'env' && /^[A-Z_][A-Z0-9_]*=/.test(value)) {
      const eq = value.indexOf('=');
      out.env[value.slice(0, eq)] = value.slice(eq + 1);
    } else throw new Error(`${where}: unknown doctest directive '${key} ${value}'`);
  }
  return out;
}

/** Every fenced block of a page, with the marker before it, if any. */
export function readPage(root: string, name: string): Page {
  const lines = readFileSync(path.join(root, name), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    if (end === lines.length) throw new Error(`${name}:${i + 1}: a fence that never closes`);
    const marker = /^<!--\s*doctest:(.*)-->\s*$/.exec(lines[i - 1] ?? '');
    blocks.push({
      line: i + 1,
      lang: open[1] as string,
      directives: marker ? parseDirectives(marker[1] as string, `${name}:${i}`) : { env: {} },
      from: i + 1,
      to: end - 1,
      body: lines.slice(i + 1, end),
    });
    i = end;
  }
  return { name, lines, blocks };
}

/** README.md and every page of docs/, in order. */
export function readPages(root: string): Page[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].map((name) => readPage(root, name));
}

/** A console block's commands, each with the lines it expects. */
export function commandsOf(block: Block, where: string): Command[] {
  const commands: Command[] = [];
  for (let i = 0; i < block.body.length; i++) {
    const line = block.body[i] as string;
    const current = commands.at(-1);
    if (!line.startsWith('$ ')) {
      if (!current) throw new Error(`${where}: a console block must start with a command ($ ...)`);
      current.expected.push(line);
      continue;
    }
    const taken = [line];
    while ((taken.at(-1) as string).endsWith(' \\') && i + 1 < block.body.length) taken.push(block.body[++i] as string);
    const text = taken.map((l, n) => (n === 0 ? l.slice(2) : l).replace(/ \\$/, '').trim()).join(' ');
    commands.push({ text, lines: taken, expected: [] });
  }
  return commands;
}

/**
 * A command line split into words as a POSIX shell would for what the docs write: bare words, '...' and
 * "..." (no expansion inside either), `\` escapes. Anything else a shell does (pipes, `$VAR`, globs) is
 * refused, so that an example never means something else here than in a shell.
 */
export function commandWords(text: string, where: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) throw new Error(`${where}: unclosed ${ch} in: ${text}`);
      const inner = text.slice(i + 1, end);
      if (ch === '"' && /[$`\\]/.test(inner)) throw new Error(`${where}: no expansion in "..." here: ${text}`);
      current += inner;
      i = end;
      inWord = true;
    } else if (ch === '\\') {
      current += text[++i] ?? '';
      inWord = true;
    } else if (ch === ' ') {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else if ('|&;<>$`*?(){}'.includes(ch)) {
      throw new Error(`${where}: '${ch}' is shell syntax the examples cannot use (write a plain command): ${text}`);
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** The page with each command's expected lines replaced by `actual` (same order as commandsOf gave them). */
export function rewritePage(page: Page, replacements: Map<Block, string[][]>): string {
  const out: string[] = [];
  let next = 0;
  for (const block of page.blocks) {
    const outputs = replacements.get(block);
    if (!outputs) continue;
    out.push(...page.lines.slice(next, block.from));
    commandsOf(block, page.name).forEach((command, n) => {
      out.push(...command.lines, ...(outputs[n] as string[]));
    });
    next = block.to + 1;
  }
  out.push(...page.lines.slice(next));
  return out.join('\n');
}
