// --webhook-format teams end to end: feed posts one Adaptive Card message per new recall; digest --webhook posts its summary.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { receivingServer } from '../helpers/handler-server.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Keeps each POSTed body, answers 200. */
async function receiver() {
  const server = await receivingServer('1');
  const bodies = (): unknown[] => server.received.map((r) => JSON.parse(r.body));
  return { url: `${server.url}/workflows/abc/triggers/secret`, bodies };
}

type Block = { type: string; inlines: { type: string; text: string }[] };
type Envelope = { type: string; attachments: { contentType: string; content: { type: string; body: Block[] } }[] };

describe('--webhook-format teams', () => {
  it('feed --state posts one Adaptive Card message per new recall', async () => {
    sandbox = await sandboxFor({ seed: 51, recordCount: 20 });
    const hook = await receiver();
    const dir = tempDir();
    const r = await runMainAgainst(sandbox, [
      'feed',
      '--state',
      path.join(dir, 's.json'),
      '--max',
      '2',
      '-f',
      'jsonl',
      '--webhook',
      hook.url,
      '--webhook-format',
      'teams',
    ]);
    expect(r.code).toBe(0);
    const written = jsonLines(r.stdout);
    expect(hook.bodies()).toHaveLength(2);
    for (const [i, body] of (hook.bodies() as Envelope[]).entries()) {
      expect(body.type).toBe('message');
      expect(body.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
      expect(body.attachments[0]!.content.type).toBe('AdaptiveCard');
      // The title as the API sent it, in a TextRun (which renders no markdown).
      expect(body.attachments[0]!.content.body[0]).toEqual({
        type: 'RichTextBlock',
        inlines: [{ type: 'TextRun', text: written[i]!.alert_title, weight: 'Bolder', size: 'Medium' }],
      });
    }
  });

  it('digest --webhook posts the summary: a card for teams, the JSON contract for json', async () => {
    sandbox = await sandboxFor({ seed: 52, recordCount: 20 });
    const hook = await receiver();
    const db = path.join(tempDir(), 'a.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const teams = await runMainAgainst(sandbox, [
      'digest',
      '--db',
      db,
      '--webhook',
      hook.url,
      '--webhook-format',
      'teams',
    ]);
    expect(teams.code).toBe(0);
    expect(teams.stdout).toBe('');
    const json = await runMainAgainst(sandbox, ['digest', '--db', db, '--webhook', hook.url]);
    expect(json.code).toBe(0);
    expect(hook.bodies()).toHaveLength(2);
    const card = (hook.bodies()[0] as Envelope).attachments[0]!.content;
    expect(card.body[0]!.inlines[0]!.text).toMatch(
      /^Recalls \d{1,2} \w{3}: \d+ new \(\d+ \w+\) · monitoring complete$/,
    );
    const digest = hook.bodies()[1] as { period: unknown; recalls: { new: unknown[] }; health: { complete: boolean } };
    expect(Object.keys(digest)).toEqual(['period', 'deadlines', 'products', 'recalls', 'counts', 'matches', 'health']);
    expect(digest.health.complete).toBe(true);
  });
});
