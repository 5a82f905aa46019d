// docs/commands.md, docs/exit-codes.md and docs/settings-table.md are generated (npm run docs): this fails, in CI too, when one is stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../src/cli/reference.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs');

describe('the generated reference pages', () => {
  it('are what `npm run docs` makes of the sources now', async () => {
    const pages = await generatedDocs();
    expect(Object.keys(pages).sort()).toEqual(['commands.md', 'exit-codes.md', 'settings-table.md']);
    for (const [name, text] of Object.entries(pages)) {
      const onDisk = readFileSync(path.join(DOCS, name), 'utf8');
      expect(onDisk, `docs/${name} is stale: run npm run docs`).toBe(text);
    }
  });

  it('commands.md holds every command and subcommand with its options', async () => {
    const { 'commands.md': page } = await generatedDocs();
    for (const heading of ['## recall-feed feed', '## recall-feed cases verify', '## recall-feed config set']) {
      expect(page).toContain(`\n${heading}\n`);
    }
    expect(page).toContain('--page-size');
    expect(page).toMatch(/-f, --format <format>\s+table, jsonl, json, csv, parquet/);
  });
});
