// Teams and Slack payloads: the documented shapes, hostile text kept as text, and bodies that stay under each service's size limit.
import { describe, expect, it } from 'vitest';
import { TEAMS_MAX_BYTES, teamsRecallMessage } from '../../src/output/teams-card.js';
import { slackMessage } from '../../src/actions/webhook-action.js';
import { SLACK_MAX_CHARS } from '../../src/output/slack-text.js';
import { slackDigest, teamsDigest } from '../../src/output/digest/digest-chat.js';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';
import { healthLines } from '../../src/output/digest/digest-view.js';

/** Teams' documented limit for a Workflows webhook message: about 28 KB. */
const TEAMS_LIMIT = 28 * 1024;

const recall = (over: Record<string, unknown> = {}) => ({
  id: 104835,
  alert_title: 'Rappel : Bouilloire',
  risk_severity: 'serious',
  product_brand: 'Acme',
  data_source: 'rappel_conso',
  source_url: 'https://rappel.conso.gouv.fr/fiche-rappel/1/Interne',
  ...over,
});

/** The text of a RichTextBlock (TextRuns render no markdown) or a TextBlock. */
const textOf = (e: { text?: string; inlines?: { text: string }[] }) =>
  e.text ?? (e.inlines ?? []).map((r) => r.text).join('');

/**
 * The shape Microsoft documents for a Workflows incoming webhook: a message whose one attachment is an
 * Adaptive Card; checked by hand here, element by element, rather than with our own builder.
 */
function checkTeamsShape(payload: unknown): Record<string, unknown> {
  const p = payload as { type: string; attachments: { contentType: string; content: Record<string, unknown> }[] };
  expect(p.type).toBe('message');
  expect(p.attachments).toHaveLength(1);
  expect(p.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
  const card = p.attachments[0]!.content;
  expect(card.type).toBe('AdaptiveCard');
  expect(card.version).toMatch(/^1\.[0-6]$/);
  const elements = card.body as { type: string; text?: string; inlines?: unknown[]; actions?: unknown[] }[];
  for (const e of elements) {
    expect(['TextBlock', 'RichTextBlock', 'ActionSet']).toContain(e.type);
    if (e.type === 'TextBlock') expect(typeof e.text).toBe('string');
    if (e.type === 'RichTextBlock')
      for (const run of e.inlines as { type: string; text: unknown }[]) {
        expect(run.type).toBe('TextRun');
        expect(typeof run.text).toBe('string');
      }
  }
  const actions = [
    ...((card.actions as unknown[]) ?? []),
    ...elements.flatMap((e) => (e.type === 'ActionSet' ? (e.actions as unknown[]) : [])),
  ] as { type: string; url: string; title: string }[];
  for (const a of actions) {
    expect(a.type).toBe('Action.OpenUrl');
    expect(a.url).toMatch(/^https?:\/\//);
    expect(a.title).not.toBe('');
  }
  expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(TEAMS_LIMIT);
  return card;
}

describe('teams', () => {
  it('a recall: title, severity, brand and source facts, and a button to the notice', () => {
    const card = checkTeamsShape(teamsRecallMessage(recall()));
    const body = card.body as { type: string; inlines: { text: string }[] }[];
    expect(textOf(body[0]!)).toBe('Rappel : Bouilloire');
    expect(body.slice(1, 4).map(textOf)).toEqual(['severity: serious', 'brand: Acme', 'source: rappel_conso']);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the notice', url: 'https://rappel.conso.gouv.fr/fiche-rappel/1/Interne' },
    ]);
  });

  it('hostile text stays text (a TextRun renders no markdown), a javascript: URL never a button, a huge title shortened', () => {
    const card = checkTeamsShape(
      teamsRecallMessage(
        recall({
          alert_title: `[click](https://evil.example) **bold** ${'x'.repeat(100_000)}`,
          source_url: 'javascript:alert(1)',
        }),
      ),
    );
    const title = textOf((card.body as { inlines: { text: string }[] }[])[0]!);
    expect((card.body as { type: string }[])[0]!.type).toBe('RichTextBlock');
    expect(title.startsWith('[click](https://evil.example) **bold** xxx')).toBe(true);
    expect(Array.from(title).length).toBeLessThan(400);
    expect(card.actions).toBeUndefined();
  });

  it('a value holding " · " or ": " stays one fact: it cannot forge a labelled line of its own', () => {
    const card = checkTeamsShape(teamsRecallMessage(recall({ product_brand: 'Acme · severity: none' })));
    const body = card.body as { inlines: { text: string }[] }[];
    expect(body.slice(1).map(textOf)).toEqual([
      'severity: serious',
      'brand: Acme · severity: none',
      'source: rappel_conso',
      'id 104835',
    ]);
    expect(body[2]!.inlines.map((r) => r.text)).toEqual(['brand: ', 'Acme · severity: none']);
  });

  it('a runaway link is left out rather than sent in a body Teams would refuse', () => {
    const card = checkTeamsShape(
      teamsRecallMessage(recall({ source_url: `https://example.gov/${'a'.repeat(100_000)}` })),
    );
    expect(card.actions).toBeUndefined();
  });

  it('a digest of 3,000 recalls stays under 28 KB and counts what it left out', () => {
    const recalls = Array.from({ length: 3000 }, (_, i) =>
      recall({ id: i + 1, alert_title: `Recall number ${i + 1} ${'é'.repeat(80)}` }),
    );
    const d = buildDigest({
      fromMs: 0,
      toMs: 86_400_000,
      stored: { new: recalls, updated: [] },
      matches: null,
      products: null,
      health: GOOD_HEALTH,
      sourcesChecked: true,
      settled: true,
    });
    const payload = teamsDigest(d);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const card = checkTeamsShape(payload);
    const texts = (card.body as { type: string; text?: string; inlines?: { text: string }[] }[]).map(textOf);
    const shown = texts.filter((t) => t.startsWith('Recall number')).length;
    expect(shown).toBeGreaterThan(10);
    expect(texts.at(-2)).toBe(`… and ${(3000 - shown).toLocaleString('en-US')} more`);
    expect(texts.at(-1)).toMatch(/^The full digest, every recall listed: recall-feed digest --since /);
  });
});

describe('slack', () => {
  it('a recall is {"text"} alone, under the limit even with a runaway title', () => {
    const msg = slackMessage(recall({ alert_title: `<!channel> ${'y'.repeat(50_000)}` }));
    expect(Object.keys(msg)).toEqual(['text']);
    expect(msg.text.length).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    expect(msg.text).toContain('&lt;!channel&gt;');
  });

  it('a recall is said in the words of every other message: controls and line breaks gone, the same facts and link', () => {
    const msg = slackMessage(
      recall({ alert_title: 'Kettle\u001b[2J\u202e <b>\r\nrecalled', product_brand: 'Acme\u0007', id: 7 }),
    );
    expect(msg.text).toBe(
      '*Kettle[2J &lt;b&gt; recalled*\nseverity: serious · brand: Acme · source: rappel_conso\n<https://rappel.conso.gouv.fr/fiche-rappel/1/Interne>',
    );
  });

  it("the API's source ids in a digest's monitoring lines carry no control code, in text, Slack and Teams", () => {
    const evil = 'evil\u001b]8;;http://evil.example/\u0007CLICK\u001b[2J\rOVER\u202eevil\u200b';
    const d = buildDigest({
      fromMs: 0,
      toMs: 86_400_000,
      stored: { new: [], updated: [] },
      matches: null,
      products: null,
      health: {
        complete: false,
        runs: { ok: 1, failed: 0, interrupted: 0 },
        last_ok_sync: null,
        gaps: [],
        sources_missing: [evil],
      },
      sourcesChecked: true,
      settled: true,
    });
    const line = healthLines(d).find((l) => l.startsWith('Sources no successful sync covered'));
    expect(line).toBe('Sources no successful sync covered: evil]8;;http://evil.example/CLICK[2J OVERevil.');
    for (const text of [slackDigest(d).text, JSON.stringify(teamsDigest(d))])
      expect(text).not.toMatch(/[\u0007\u001b\r\u202e\u200b]|\\u001b|\\u0007|\\r|\\u202e/);
  });

  it('a digest of 3,000 recalls is one text under the limit, the rest counted', () => {
    const recalls = Array.from({ length: 3000 }, (_, i) => recall({ id: i + 1, alert_title: `Recall ${i + 1}` }));
    const d = buildDigest({
      fromMs: 0,
      toMs: 86_400_000,
      stored: { new: recalls, updated: [] },
      matches: null,
      products: null,
      health: {
        complete: false,
        runs: { ok: 0, failed: 1, interrupted: 0 },
        last_ok_sync: null,
        gaps: [],
        sources_missing: [],
      },
      sourcesChecked: true,
      settled: true,
    });
    const { text } = slackDigest(d);
    expect(text.length).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    expect(text.split('\n')[0]).toBe('*Recalls 1 Jan: 3,000 new (3000 serious) · monitoring INCOMPLETE*');
    const shown = text.split('\n').filter((l) => l.startsWith('• ')).length;
    expect(text.split('\n').at(-2)).toBe(`… and ${(3000 - shown).toLocaleString('en-US')} more`);
    expect(text.split('\n').at(-1)).toMatch(/^The full digest, every recall listed: /);
    expect(text).toContain('1 sync failed.');
  });
});
