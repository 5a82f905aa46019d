// digest -f html (written by the CLI in process) in a real browser (Debian's chromium through playwright-core): it asks for nothing over the network, prints to PDF, and its products table fits the window.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = '/usr/bin/chromium';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 40, seed: 61, clock: () => FIXED_START });
});
afterAll(async () => {
  await sandbox.close();
});

describe('digest -f html', () => {
  it.skipIf(!existsSync(CHROMIUM))(
    'loads with no request beyond the file itself, shows the summary, and prints',
    async () => {
      const dir = tempDir();
      const db = path.join(dir, 'a.db');
      const page = path.join(dir, 'digest.html');
      expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
      expect((await runMainAgainst(sandbox, ['digest', '--db', db, '-o', page])).code).toBe(0);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      deferCleanup(() => browser.close());
      const tab = await browser.newPage();
      const requested: string[] = [];
      tab.on('request', (req) => requested.push(req.url()));
      const url = pathToFileURL(page).href;
      await tab.goto(url, { waitUntil: 'load' });
      expect(requested).toEqual([url]);
      const heading = await tab.textContent('h1');
      expect(heading).toMatch(/^Recalls \d{1,2} \w{3}: \d+ new \(\d+ serious\) · monitoring complete$/);
      // Print styles apply and the page renders to a PDF.
      const pdf = await tab.pdf({ format: 'A4' });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(requested).toEqual([url]);
    },
    60_000,
  );

  it.skipIf(!existsSync(CHROMIUM))(
    "your products' table, case column included, fits a 1,000 px window however long a product's name",
    async () => {
      const dir = tempDir();
      const db = path.join(dir, 'a.db');
      const page = path.join(dir, 'digest.html');
      expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
      const stored = await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl']);
      const recall = stored.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find(
          (r) =>
            typeof r.product_brand === 'string' &&
            /^[A-Za-z]+$/.test(r.product_brand) &&
            Array.isArray(r.product_model_numbers) &&
            typeof r.product_model_numbers[0] === 'string' &&
            /^[A-Za-z0-9-]{4,}$/.test(r.product_model_numbers[0]),
        )!;
      const catalog = path.join(dir, 'products.csv');
      // One word of 120 characters, as a catalogue's concatenated variant names can be.
      const name = `Kettle ${'stainlesssteeldeluxe'.repeat(6)}`;
      writeFileSync(
        catalog,
        `sku,name,brand,model\nKT-100,${name},${recall.product_brand},${(recall.product_model_numbers as string[])[0]}\n`,
      );
      const opened = await runMainAgainst(sandbox, [
        'match',
        '--catalog',
        catalog,
        '--archive',
        '--db',
        db,
        '--open-cases',
      ]);
      expect(opened.code, opened.stderr).toBe(0);
      const resolved = await runMainAgainst(sandbox, [
        'cases',
        'resolve',
        '1',
        '--as',
        'removed-from-sale',
        '--db',
        db,
      ]);
      expect(resolved.code, resolved.stderr + opened.stderr).toBe(0);
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '--catalog', catalog, '-o', page]);
      expect(r.code, r.stderr).toBe(0);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      deferCleanup(() => browser.close());
      const tab = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
      const cell = tab.locator('tr', { hasText: 'sku KT-100' }).locator('td').last();
      expect(await cell.textContent()).toBe('case 1 closed');
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1000);
      expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1000);
    },
    60_000,
  );
});
