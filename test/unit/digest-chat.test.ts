// The digest's chat payloads: bounded when monitoring failed badly, cut by code points, Markdown links and images made inert, your products named first.
import { describe, expect, it } from 'vitest';
import { TEAMS_MAX_BYTES } from '../../src/output/teams-card.js';
import { slackMessage } from '../../src/actions/webhook-action.js';
import { SLACK_MAX_CHARS } from '../../src/output/slack-text.js';
import type { MonitoringHealth } from '../../src/archive/health.js';
import { slackDigest, teamsDigest } from '../../src/output/digest/digest-chat.js';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import type { ProductRow } from '../../src/output/digest/product-text.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';

const H = 3_600_000;
const DAY0 = Date.parse('2026-11-25T00:00:00.000Z');

function recall(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    alert_title: 'Kettle recall',
    risk_severity: 'high',
    data_source: 'us_cpsc',
    source_url: 'https://example.gov/n/1',
    ...over,
  };
}

function digest(recalls: Record<string, unknown>[], health = GOOD_HEALTH, products: ProductRow[] | null = null) {
  return buildDigest({
    fromMs: DAY0 - 24 * H,
    toMs: DAY0,
    stored: { new: recalls, updated: [] },
    matches: products === null ? null : [],
    products,
    health,
    sourcesChecked: true,
    settled: true,
  });
}

/** Every text a card shows, in order. */
function cardTexts(payload: Record<string, unknown>): string[] {
  const card = (payload.attachments as { content: { body: Record<string, unknown>[] } }[])[0]!.content;
  return card.body.map((b) =>
    typeof b.text === 'string'
      ? b.text
      : Array.isArray(b.inlines)
        ? (b.inlines as { text: string }[]).map((i) => i.text).join('')
        : '',
  );
}

function product(i: number, over: Partial<ProductRow> = {}): ProductRow {
  return {
    level: 'match',
    reason: 'gtin',
    key: `SKU-${i}`,
    key_column: 'sku',
    name: `Kettle model ${i}`,
    catalog_line: i + 1,
    recall_id: 1000 + i,
    alert_title: `Recall of kettle ${i}`,
    risk_severity: 'serious',
    hazard: 'burns',
    data_source: 'us_cpsc',
    published_at: '2026-11-24T10:00:00.000Z',
    source_url: `https://example.gov/n/${i}`,
    case: null,
    scope: 'unknown',
    scope_evidence: null,
    ...over,
  };
}

describe('when monitoring failed: 348 gaps', () => {
  // One gap per hour-long stretch over two weeks: a sync that kept failing.
  const gaps = Array.from({ length: 348 }, (_, i) => ({
    from: new Date(DAY0 - (i + 2) * H).toISOString(),
    to: new Date(DAY0 - (i + 1) * H - 60_000).toISOString(),
    hours: 0.98,
  }));
  const broken: MonitoringHealth = {
    ...GOOD_HEALTH,
    complete: false,
    runs: { ok: 1, failed: 40, interrupted: 0 },
    gaps,
  };
  const recalls = Array.from({ length: 50 }, (_, i) => recall({ id: i + 1, alert_title: `Recall ${i + 1}` }));

  it('the Teams card stays under its budget, summarises the gaps and still lists recalls', () => {
    const payload = teamsDigest(digest(recalls, broken));
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const texts = cardTexts(payload);
    expect(texts).toContain('Not fetched: 348 stretches, 341.04 h in all; the first 3:');
    expect(texts.filter((t) => t.startsWith('Not fetched: recalls published'))).toHaveLength(3);
    expect(texts.filter((t) => t.startsWith('Recall ')).length).toBe(50);
  });

  it('the Slack text stays under its limit, summarises the gaps and still lists recalls', () => {
    const { text } = slackDigest(digest(recalls, broken));
    expect(text.length).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    expect(text).toContain('Not fetched: 348 stretches, 341.04 h in all; the first 3:');
    const shown = text.split('\n').filter((l) => l.startsWith('• Recall ')).length;
    expect(shown).toBeGreaterThan(20);
    expect(text).toContain(shown < 50 ? `… and ${50 - shown} more` : 'Recall 50');
  });
});

describe('Slack text', () => {
  it('cuts a long title by code points: never half a surrogate pair', () => {
    // 299 letters then emoji: a cut at 300 UTF-16 units would split the first emoji.
    const title = `${'a'.repeat(299)}${'😀'.repeat(50)}`;
    const { text } = slackDigest(digest([recall({ alert_title: title })]));
    const line = text.split('\n').find((l) => l.startsWith('• a'))!;
    expect(line).toBeDefined();
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(line)).toBe(false);
    expect(line).toContain(`${'a'.repeat(299)}…`);
  });

  it('makes Markdown links and images in recall text inert, in the digest and in a single alert', () => {
    const hostile = 'Recall [click here](https://evil.example/x) ![pixel](https://evil.example/p.png) [ref] [x][y]';
    const { text } = slackDigest(digest([recall({ alert_title: hostile })]));
    const single = slackMessage(recall({ alert_title: hostile })).text;
    for (const t of [text, single]) {
      expect(t).not.toMatch(/\]\(/);
      expect(t).not.toMatch(/!\[/);
      expect(t).not.toMatch(/\]\[/);
      expect(t).not.toContain('<https://evil');
      // The words are still there for the reader.
      expect(t.replace(/\u200b/g, '')).toContain('[click here](https://evil.example/x)');
    }
  });
});

describe('your products first', () => {
  const many = Array.from({ length: 400 }, (_, i) => recall({ id: i + 1, alert_title: `Other recall ${i + 1}` }));

  it('Teams names each matched product (key and name) before the other recalls, and says where the full digest is', () => {
    const products = [product(1), product(2, { level: 'possible', reason: 'brand+name', risk_severity: 'low' })];
    const texts = cardTexts(teamsDigest(digest(many, GOOD_HEALTH, products), ['qa@example.test']));
    const first = texts.findIndex((t) => t.includes('sku SKU-1 · Kettle model 1'));
    const second = texts.findIndex((t) => t.includes('sku SKU-2 · Kettle model 2'));
    const other = texts.findIndex((t) => t.startsWith('Other recall'));
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(other).toBeGreaterThan(second);
    expect(texts[first]).toContain('MATCH');
    expect(texts[first + 1]).toContain('serious · hazard: burns · us_cpsc · match (gtin)');
    expect(texts.at(-1)).toBe('The full digest, every recall listed: e-mailed to qa@example.test.');
  });

  it('a product whose recall has no title reads "recall <id>" in Teams and Slack, as in the other formats', () => {
    const products = [product(7, { alert_title: null })];
    const texts = cardTexts(teamsDigest(digest(many, GOOD_HEALTH, products)));
    expect(texts).toContain('MATCH: sku SKU-7 · Kettle model 7: recall 1007');
    const slack = slackDigest(digest(many, GOOD_HEALTH, products)).text;
    expect(slack).toContain('• *MATCH* sku SKU-7 · Kettle model 7: recall 1007 (');
  });

  it('too many products for one message: as many as fit, then "and N more pairs of a row and a recall"', () => {
    const products = Array.from({ length: 300 }, (_, i) => product(i));
    const payload = teamsDigest(digest(many, GOOD_HEALTH, products));
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const texts = cardTexts(payload);
    const named = texts.filter((t) => t.startsWith('MATCH: sku SKU-')).length;
    expect(named).toBeGreaterThan(10);
    expect(texts).toContain(`… and ${300 - named} more pairs of a row and a recall (${300 - named} matches)`);
    const slack = slackDigest(digest(many, GOOD_HEALTH, products)).text;
    expect(slack.length).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    const inSlack = slack.split('\n').filter((l) => l.startsWith('• *MATCH* sku SKU-')).length;
    expect(slack).toContain(`… and ${300 - inSlack} more pairs of a row and a recall (${300 - inSlack} matches)`);
  });
});
