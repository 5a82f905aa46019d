// digest -f html (written by the CLI in process) in a real browser (Debian's chromium through playwright-core): it asks for nothing over the network and prints to PDF.
import { existsSync } from 'node:fs';
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
});
