// docs/mcp.md's client configurations parse, and each starts `recall-feed mcp` with flags the command accepts.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const PAGE = readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');

/** Each ```json block, with the heading it sits under. */
const blocks = [...PAGE.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => {
  const before = PAGE.slice(0, m.index);
  const heading = [...before.matchAll(/^#{2,3} (.+)$/gm)].at(-1)?.[1] ?? '';
  return { heading, text: m[1]! };
});

interface Entry {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
}

function entryOf(config: Record<string, any>): Entry {
  const servers = config.mcpServers ?? config.servers;
  expect(Object.keys(servers ?? {})).toEqual(['recall-feed']);
  return servers['recall-feed'];
}

describe('docs/mcp.md', () => {
  it('has a configuration for Claude Desktop, VS Code and Cursor, and one over HTTP', () => {
    expect(blocks.map((b) => b.heading)).toEqual(['Claude Desktop', 'VS Code', 'Cursor', 'Streamable HTTP']);
    for (const b of blocks) expect(() => JSON.parse(b.text), b.heading).not.toThrow();
  });

  it.each(blocks.filter((b) => b.heading !== 'Streamable HTTP'))(
    '$heading: starts recall-feed mcp over stdio with flags it accepts',
    async ({ text }) => {
      const entry = entryOf(JSON.parse(text));
      expect(entry.type ?? 'stdio').toBe('stdio');
      expect(entry.command).toBe('recall-feed');
      expect(entry.args?.[0]).toBe('mcp');
      // The server starts on these flags and ends with its stdin (empty here); a flag it lacks is a usage error. The
      // catalogue the page names stands for the reader's own: one is written in its place (it is checked at start).
      const home = tempDir('rf-mcp-home-');
      const products = path.join(home, 'products.csv');
      writeFileSync(products, 'sku,brand,name\nA-1,Acme,Kettle\n');
      const args = entry.args!.map((a, i) => (entry.args![i - 1] === '--catalog' ? products : a));
      const run = await runMain(args, { env: { HOME: home } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      expect((await runMain([...args, '--no-such-flag'])).code).toBe(2);
    },
  );

  it('the HTTP client points at /mcp on loopback, with the bearer token from an input', () => {
    const http = JSON.parse(blocks.find((b) => b.heading === 'Streamable HTTP')!.text);
    const entry = entryOf(http) as Entry & { headers: Record<string, string> };
    expect(entry.type).toBe('http');
    expect(entry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own placeholder, which it fills from the input.
    expect(entry.headers.Authorization).toBe('Bearer ${input:recall-feed-token}');
    expect(http.inputs.map((i: { id: string }) => i.id)).toEqual(['recall-feed-token']);
    const port = /:(\d+)\/mcp$/.exec(entry.url!)![1];
    expect(PAGE).toContain(`recall-feed mcp --http ${port} `);
  });
});
