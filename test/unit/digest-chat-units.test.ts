// What the digest's numbers count: "your products" is catalogue rows, the cut lists' notes count pairs of a row and a
// recall (or cases, by state, with the command that lists them), and every count is grouped as the other formats do.
import { describe, expect, it } from 'vitest';
import { slackDigest, teamsDigest } from '../../src/output/digest/digest-chat.js';
import { type DeadlineRow, deadlinesMore } from '../../src/output/digest/deadline-text.js';
import { digestHtml } from '../../src/output/digest/digest-html.js';
import { digestText } from '../../src/output/digest/digest-text.js';
import type { Digest } from '../../src/output/digest/digest-view.js';
import { type ProductCounts, type ProductRow, productsMore } from '../../src/output/digest/product-text.js';

const FROM = '2026-11-28T17:36:00.000Z';
const TO = '2026-11-29T17:36:00.000Z';
const LONG = ' long words'.repeat(30);

function recall(id: number): Record<string, unknown> {
  return { id, alert_title: `Kettle recall ${id}${LONG}`, risk_severity: 'serious', data_source: 'us_cpsc' };
}

/** One (catalogue row, recall) pair: the rows are KT-1 and KT-2 of a 2-row catalogue. */
function pair(row: 1 | 2, recallId: number, level = 'match'): ProductRow {
  return {
    level,
    reason: 'barcode',
    key: `KT-${row}`,
    key_column: 'sku',
    name: row === 1 ? 'Kettle one' : 'Kettle two',
    catalog_line: row + 1,
    recall_id: recallId,
    alert_title: `Kettle recall ${recallId}${LONG}`,
    risk_severity: 'serious',
    hazard: 'The lid can detach, posing a burn hazard.',
    data_source: 'us_cpsc',
    published_at: '2026-11-29T10:00:00.000Z',
    source_url: `https://example.gov/recalls/${recallId}`,
    case: null,
    scope: null,
    scope_evidence: null,
  };
}

function dueRow(id: number, state: DeadlineRow['state']): DeadlineRow {
  return {
    state,
    case_id: id,
    status: 'open',
    level: 'match',
    catalog_key: `sku:P${id}`,
    product_name: `Product ${id}`,
    recall_id: 1000 + id,
    alert_title: `Recall of product ${id}${LONG}`,
    risk_severity: 'serious',
    due_at: state === 'overdue' ? '2026-11-29T12:00:00.000Z' : '2026-11-30T12:00:00.000Z',
    sla: '2wd',
    hours_left: state === 'overdue' ? -5.6 : 18.4,
  };
}

/** A digest of 29 Nov written out by hand: the two rows match (serious) every recall given, as 2 × N pairs. */
function digest(
  over: { recalls?: number; products?: ProductRow[] | null; rows?: ProductCounts['rows']; due?: DeadlineRow[] } = {},
): Digest {
  const recalls = Array.from({ length: over.recalls ?? 4 }, (_, i) => recall(102_890 + i));
  const products =
    over.products === undefined
      ? recalls.flatMap((r) => [pair(1, r.id as number), pair(2, r.id as number)])
      : over.products;
  const due = over.due ?? [];
  return {
    period: { from: FROM, to: TO },
    deadlines: {
      as_of: TO,
      due_soon_until: '2026-12-01T00:00:00.000Z',
      overdue: due.filter((r) => r.state === 'overdue').length,
      due_soon: due.filter((r) => r.state === 'due-soon').length,
      cases: due,
    },
    products,
    recalls: { new: recalls, updated: [] },
    counts: {
      new: recalls.length,
      updated: 0,
      by_severity: [{ value: 'serious', count: recalls.length }],
      by_source: [{ value: 'us_cpsc', count: recalls.length }],
      products:
        products === null
          ? null
          : {
              period: { from: FROM, to: TO },
              recalls_checked: recalls.length,
              pairs: { match: products.length, possible: 0, excluded: 0, closed: 0 },
              rows: over.rows ?? { match: 2, match_serious: 2, possible: 0, closed: 0 },
            },
    },
    matches: products === null ? null : [],
    health: {
      complete: true,
      runs: { ok: 1, failed: 0, interrupted: 0 },
      last_ok_sync: '2026-11-29T17:35:54.164Z',
      gaps: [],
      sources_missing: [],
      sources_checked: true,
      writes_settled: true,
    },
  };
}

/** Every text a Teams card shows, in order. */
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

describe('the note of the pairs left out counts pairs, never "your products"', () => {
  it('by level, singular and plural, digits grouped, with the attachment for the e-mail', () => {
    const m = pair(1, 1);
    const p = pair(2, 1, 'possible');
    const x = pair(2, 2, 'excluded');
    expect(productsMore([m, m, p])).toBe('… and 3 more pairs of a row and a recall (2 matches, 1 possible)');
    expect(productsMore([p])).toBe('… and 1 more pair of a row and a recall (1 possible)');
    expect(productsMore([m, x])).toBe('… and 2 more pairs of a row and a recall (1 match, 1 excluded)');
    expect(productsMore([...Array(1_500).fill(m), p, p, p], 'recalls-2026-11-29.csv')).toBe(
      '… and 1,503 more pairs of a row and a recall (1,500 matches, 3 possible), in the attached recalls-2026-11-29.csv.',
    );
  });

  it('Slack, a 2-row catalogue matching 4 recalls: "2 of your products" opens, 8 pairs are listed or counted as pairs', () => {
    const text = slackDigest(digest()).text;
    const lines = text.split('\n');
    expect(lines[0]).toBe('*Recalls 29 Nov: 2 of your products match (2 serious) · 4 new · monitoring complete*');
    const pairs = lines.filter((l) => l.startsWith('• *MATCH* sku KT-'));
    expect(pairs).toHaveLength(6);
    expect(lines).toContain('… and 2 more pairs of a row and a recall (2 matches)');
    expect(text).not.toContain('more of your products');
  });

  it('Teams, the same digest: the same words', () => {
    const texts = cardTexts(teamsDigest(digest({ recalls: 40 })));
    expect(texts[0]).toBe('Recalls 29 Nov: 2 of your products match (2 serious) · 40 new · monitoring complete');
    const shown = texts.filter((t) => t.startsWith('MATCH: sku KT-')).length;
    expect(shown).toBe(33);
    expect(texts).toContain('… and 47 more pairs of a row and a recall (47 matches)');
    expect(texts.join('\n')).not.toContain('more of your products');
  });

  it("the e-mail's text and HTML parts: the note counts pairs", () => {
    const d = digest({ recalls: 60 });
    const budget = { maxBytes: 20_000, attachment: 'recalls-2026-11-29.csv' };
    const text = digestText(d, 72, budget);
    expect(text).toContain('2 of your products match (2 serious)');
    const inText = text.split('\n').filter((l) => l.startsWith('  MATCH  sku KT-')).length;
    expect(inText).toBe(32);
    expect(text).toContain(
      '  … and 88 more pairs of a row and a recall (88 matches), in the attached recalls-2026-11-29.csv.',
    );
    const html = digestHtml(d, budget);
    expect(html).toContain('more pairs of a row and a recall (');
    for (const out of [text, html]) expect(out).not.toContain('more of your products');
  });
});

describe('the note of the cases left out says their state and the command that lists them', () => {
  // Each note names the listing that holds exactly the cases it counts: --due-soon holds the overdue ones too.
  const LIST_OPEN = 'recall-feed cases --due-soon lists them';
  const LIST_OVERDUE = 'recall-feed cases --overdue lists them';

  it('due soon, overdue, both; singular and grouped', () => {
    const soon = (n: number) => Array.from({ length: n }, (_, i) => dueRow(i + 1, 'due-soon'));
    const late = (n: number) => Array.from({ length: n }, (_, i) => dueRow(i + 100, 'overdue'));
    expect(deadlinesMore(soon(6))).toBe(`… and 6 more cases due soon: ${LIST_OPEN}`);
    expect(deadlinesMore(late(1))).toBe(`… and 1 more case overdue: ${LIST_OVERDUE}`);
    expect(deadlinesMore([...late(2), ...soon(4)])).toBe(
      `… and 6 more cases due (2 overdue, 4 due soon): ${LIST_OPEN}`,
    );
    expect(deadlinesMore(soon(1_503))).toBe(`… and 1,503 more cases due soon: ${LIST_OPEN}`);
  });

  it('Slack and Teams with 9 cases due soon and none overdue: no pointer at --overdue', () => {
    const due = Array.from({ length: 9 }, (_, i) => dueRow(i + 1, 'due-soon'));
    const text = slackDigest(digest({ due })).text;
    expect(text.split('\n')[0]).toBe(
      '*Recalls 29 Nov: 9 cases due soon · 2 of your products match (2 serious) · 4 new · monitoring complete*',
    );
    expect(text.split('\n').filter((l) => l.startsWith('• *due soon* sku P'))).toHaveLength(4);
    expect(text).toContain(`\n… and 5 more cases due soon: ${LIST_OPEN}\n`);
    expect(text).not.toContain('--overdue');
    const many = Array.from({ length: 90 }, (_, i) => dueRow(i + 1, 'due-soon'));
    const texts = cardTexts(teamsDigest(digest({ due: many })));
    expect(texts.filter((t) => t.startsWith('due soon: sku P'))).toHaveLength(19);
    expect(texts).toContain(`… and 71 more cases due soon: ${LIST_OPEN}`);
  });
});

describe('chat notes group their digits, as text and HTML do', () => {
  it('Slack and Teams: "… and 1,510 more" recalls', () => {
    const d = digest({ recalls: 1_520, products: null });
    const lines = slackDigest(d).text.split('\n');
    expect(lines.filter((l) => l.startsWith('• Kettle recall '))).toHaveLength(10);
    expect(lines).toContain('… and 1,510 more');
    const texts = cardTexts(teamsDigest(d));
    expect(texts.filter((t) => t.startsWith('Kettle recall '))).toHaveLength(48);
    expect(texts).toContain('… and 1,472 more');
  });

  it("the e-mail's text part: '… and 1,479 more recalls'", () => {
    const d = digest({ recalls: 1_520, products: null });
    const text = digestText(d, 72, { maxBytes: 20_000, attachment: 'recalls-2026-11-29.csv' });
    expect(text.split('\n').filter((l) => l.startsWith('  Kettle recall '))).toHaveLength(41);
    expect(text).toContain(
      '\n… and 1,479 more recalls: every recall of the period is in the attached recalls-2026-11-29.csv.\n',
    );
  });
});
