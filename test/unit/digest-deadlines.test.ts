// The digest's deadlines: the due-soon horizon by weekday, the order and the states, and a flood of late cases
// kept within each budget (Slack, Teams, the e-mail's parts) with your products still named after them.
import { describe, expect, it } from 'vitest';
import { TEAMS_MAX_BYTES } from '../../src/output/teams-card.js';
import { SLACK_MAX_CHARS } from '../../src/output/slack-text.js';
import type { CaseView } from '../../src/archive/cases-model.js';
import { slackDigest, teamsDigest } from '../../src/output/digest/digest-chat.js';
import { dueSoonUntil } from '../../src/archive/cases-model.js';
import { deadlinesOf } from '../../src/jobs/digest/deadlines.js';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import { digestSubject } from '../../src/output/digest/digest-view.js';
import { digestHtml } from '../../src/output/digest/digest-html.js';
import { digestText } from '../../src/output/digest/digest-text.js';
import type { ProductRow } from '../../src/output/digest/product-text.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';

const H = 3_600_000;
const DAY = 24 * H;
/** A Wednesday, 09:30 UTC. */
const WED = Date.parse('2026-11-25T09:30:00.000Z');

function kase(id: number, dueAt: string | null, over: Partial<CaseView> = {}): CaseView {
  return {
    id,
    status: 'open',
    recall_id: 1000 + id,
    level: 'match',
    reason: 'gtin',
    catalog_row: {},
    catalog_key: `sku:P${id}`,
    alert_title: `Recall of product ${id} ${'x'.repeat(120)}`,
    opened_at: '2026-11-20T00:00:00.000Z',
    updated_at: '2026-11-20T00:00:00.000Z',
    outcome: null,
    due_at: dueAt,
    sla: '2wd',
    risk_severity: 'serious',
    product_name: `Product ${id}`,
    events: [],
    ...over,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('due soon: before the end of the next working day (UTC)', () => {
  it('by weekday, written out by hand', () => {
    const cases: [string, string][] = [
      ['2026-11-23T10:00:00Z', '2026-11-25T00:00:00.000Z'], // Monday: to the end of Tuesday
      ['2026-11-25T23:59:00Z', '2026-11-27T00:00:00.000Z'], // Wednesday: to the end of Thursday
      ['2026-11-26T00:00:00Z', '2026-11-28T00:00:00.000Z'], // Thursday: to the end of Friday
      ['2026-11-27T08:00:00Z', '2026-12-01T00:00:00.000Z'], // Friday: to the end of Monday
      ['2026-11-28T08:00:00Z', '2026-12-01T00:00:00.000Z'], // Saturday: to the end of Monday
      ['2026-11-29T08:00:00Z', '2026-12-01T00:00:00.000Z'], // Sunday: to the end of Monday
    ];
    for (const [now, until] of cases) expect(iso(dueSoonUntil(Date.parse(now))), now).toBe(until);
  });

  it('overdue first, then due soon, by due time; closed, undated and later cases left out', () => {
    const d = deadlinesOf(
      [
        kase(1, iso(WED + 20 * H)),
        kase(2, iso(WED - 2 * H)),
        kase(3, iso(WED - 50 * H), { status: 'waiting' }),
        kase(4, iso(WED - 5 * H), { status: 'closed' }),
        kase(5, null),
        kase(6, '2026-11-27T00:00:00.000Z'), // the horizon itself: not due soon
        kase(7, '2026-11-26T23:59:00.000Z'),
      ],
      WED,
    );
    expect(d.cases.map((r) => [r.case_id, r.state])).toEqual([
      [3, 'overdue'],
      [2, 'overdue'],
      [1, 'due-soon'],
      [7, 'due-soon'],
    ]);
    expect([d.overdue, d.due_soon, d.as_of]).toEqual([2, 2, iso(WED)]);
    expect(d.cases.map((r) => r.hours_left)).toEqual([-50, -2, 20, 38.48]);
  });
});

function product(i: number): ProductRow {
  return {
    level: 'match',
    reason: 'gtin',
    key: `M${i}`,
    key_column: 'sku',
    name: `Matched ${i}`,
    catalog_line: i + 2,
    recall_id: 5000 + i,
    alert_title: `Matched recall ${i}`,
    risk_severity: 'high',
    hazard: null,
    data_source: 'us_cpsc',
    published_at: '2026-11-24T00:00:00.000Z',
    source_url: null,
    case: null,
    scope: null,
    scope_evidence: null,
  };
}

describe('a flood of late cases stays in budget, your products still named', () => {
  const late = Array.from({ length: 2000 }, (_, i) => kase(i + 1, iso(WED - (i + 1) * H)));
  const d = buildDigest({
    fromMs: WED - DAY,
    toMs: WED,
    deadlines: deadlinesOf(late, WED),
    stored: {
      new: [{ id: 5000, alert_title: 'Matched recall 0', risk_severity: 'high', data_source: 'us_cpsc' }],
      updated: [],
    },
    matches: [{ level: 'match' }],
    products: [product(0)],
    health: GOOD_HEALTH,
    sourcesChecked: true,
    settled: true,
  });

  it('the subject counts them; the oldest comes first', () => {
    expect(digestSubject(d)).toMatch(/^Recalls 25 Nov: 2,000 cases overdue · 1 of your products matches · /);
    expect(d.deadlines.cases[0]!.case_id).toBe(2000);
  });

  it('Slack and Teams: within their budgets, then "and N more", then your products', () => {
    const slack = slackDigest(d).text;
    expect(slack.length).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    expect(slack).toMatch(/… and [\d,]+ more cases overdue: recall-feed cases --overdue lists them\n/);
    expect(slack.indexOf('sku P2000 · Product 2000')).toBeGreaterThan(0);
    expect(slack.indexOf('sku M0 · Matched 0')).toBeGreaterThan(slack.indexOf('more cases overdue'));
    const teams = JSON.stringify(teamsDigest(d));
    expect(Buffer.byteLength(teams)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    expect(teams).toMatch(/… and [\d,]+ more cases overdue: recall-feed cases --overdue lists them/);
    expect(teams.indexOf('sku M0 · Matched 0')).toBeGreaterThan(teams.indexOf('more cases overdue'));
  });

  it('the e-mail: text and HTML parts under 100 KB, the match still there', () => {
    const budget = { maxBytes: 100_000, attachment: 'recalls-2026-11-25.csv' };
    for (const part of [digestText(d, 72, budget), digestHtml(d, budget)]) {
      expect(Buffer.byteLength(part)).toBeLessThan(100_000);
      expect(part).toContain('sku P2000 · Product 2000');
      expect(part).toContain('sku M0 · Matched 0');
      expect(part).toMatch(/… and [\d,]+ more cases overdue: recall-feed cases --overdue lists them/);
    }
  });
});
