// The report's renderings over hand-made data: hostile values stay text, the statement's wording, incomplete monitoring said.
import { describe, expect, it } from 'vitest';
import type { MonitoringHealth } from '../../src/archive/health.js';
import { statement } from '../../src/jobs/cases/report-data.js';
import { reportVerdict } from '../../src/jobs/cases/report-verdict.js';
import { reportHtml } from '../../src/output/report/report-html.js';
import { reportMarkdown } from '../../src/output/report/report-markdown.js';
import type { ReportData } from '../../src/output/report/report-model.js';
import { minute, readable } from '../../src/output/report/report-times.js';

const HOSTILE = '</style><script>alert(1)</script>| **x** [a](javascript:1) \u001b[31mred\u0007';
const healthy: MonitoringHealth = {
  complete: true,
  runs: { ok: 3, failed: 0, interrupted: 0 },
  last_ok_sync: '2026-03-02T00:00:00.000Z',
  gaps: [],
  sources_missing: [],
};
const catalogue = {
  file: 'p.csv',
  rows: 10,
  with_identifier: 8,
  without_identifier: 2,
  refused: [],
  key_column: 'sku',
  rows_with_cases: 1,
  rows_matching: 1,
  matches_without_case: [],
  not_opened: [],
  case_levels: null,
  excluded: [],
  to_verify: [],
};

/** The verdict of a period monitored from before its start (nothing unmonitored), every case owed opened. */
const verdictOf = (health: MonitoringHealth, sourcesChecked = true) =>
  reportVerdict({
    health,
    first: { startedAt: '2026-02-01T00:00:00.000Z', beganMs: Date.parse('2026-01-31T00:00:00.000Z') },
    unmonitoredMs: 0,
    sourcesChecked,
    uncased: 0,
  });

function data(health: MonitoringHealth): ReportData {
  return {
    title: 'Recall monitoring: cases and coverage',
    generated_at: '2026-03-03T00:00:00.000Z',
    period: { since: null, until: '2026-03-03T00:00:00.000Z' },
    provenance: { tool: 'recall-feed', version: '0', archive: HOSTILE, catalogue: null, chain_head: 'ab'.repeat(32) },
    coverage: { catalogue, monitoring: health },
    summary: {
      cases: 1,
      open: 0,
      waiting: 0,
      closed: 1,
      outcomes: { 'not-our-product': 1 },
      overdue: 0,
      next_due: null,
      time_to_action: {
        closed: 1,
        median_hours: 1,
        p90_hours: 1,
        with_due: 0,
        closed_within_sla: 0,
        share_within_sla: null,
      },
    },
    verdict: verdictOf(health),
    statement: statement(catalogue, health.last_ok_sync, '2026-03-03T00:00:00.000Z', verdictOf(health)),
    chain: { intact: true, events: 2, head: 'ab'.repeat(32), problem: null },
    cases: [
      {
        id: 1,
        status: 'closed',
        recall_id: 7,
        level: 'possible',
        reason: 'brand+name',
        catalog_row: { sku: HOSTILE },
        catalog_key: `sku:${HOSTILE}`,
        alert_title: HOSTILE,
        opened_at: '2026-03-01T00:00:00.000Z',
        updated_at: '2026-03-01T01:00:00.000Z',
        outcome: 'not-our-product',
        due_at: null,
        sla: null,
        risk_severity: HOSTILE,
        product_name: HOSTILE,
        recall: { risk_severity: HOSTILE, hazard: HOSTILE, source_url: HOSTILE, published_at: null },
        closed_at: '2026-03-01T01:00:00.000Z',
        time_to_action_hours: 1,
        events: [
          {
            seq: 1,
            number: 1,
            at: '2026-03-01T00:00:00.000Z',
            actor: 'recall-feed match',
            action: 'opened',
            status: 'open',
            outcome: null,
            note: null,
            hash: 'a',
          },
          {
            seq: 2,
            number: 2,
            at: '2026-03-01T01:00:00.000Z',
            actor: HOSTILE,
            action: 'resolved',
            status: 'closed',
            outcome: 'not-our-product',
            note: HOSTILE,
            hash: 'b',
          },
        ],
      },
    ],
  };
}

describe('the report renderings', () => {
  it('html keeps hostile values as text: no tag, no control character', () => {
    const html = reportHtml(data(healthy));
    expect(html).not.toMatch(/<script|<\/style><|\u001b|\u0007/);
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;| **x** [a](javascript:1) [31mred');
    expect(html.match(/<style>/g)).toHaveLength(1);
    // A notice address that is not a plain http(s) URL never becomes a link.
    expect(html).not.toContain('href');
    for (const url of ['javascript:alert(1)', 'https://x.example/a"onmouseover="alert(1)', 'data:text/html,x']) {
      const d = data(healthy);
      d.cases[0]!.recall!.source_url = url;
      expect(reportHtml(d)).not.toContain('href');
    }
    const d = data(healthy);
    // A bidi control in the address is percent-encoded in the link (a browser opens the same page) and gone from its
    // text: "…/\u202efdp.exe" would show as "…/exe.pdf".
    const bidi = data(healthy);
    bidi.cases[0]!.recall!.source_url = 'https://x.example/\u202efdp.exe';
    expect(reportHtml(bidi)).toContain(
      '<a href="https://x.example/%E2%80%AEfdp.exe" rel="noreferrer noopener">https://x.example/fdp.exe</a>',
    );
    d.cases[0]!.recall!.source_url = 'https://example.gov/recall?id=1&x=2';
    expect(reportHtml(d)).toContain(
      '<a href="https://example.gov/recall?id=1&amp;x=2" rel="noreferrer noopener">https://example.gov/recall?id=1&amp;x=2</a>',
    );
  });

  it('markdown escapes what would become markup, a table cell pipe included', () => {
    const md = reportMarkdown(data(healthy));
    expect(md).toContain('\\<script\\>alert\\(1\\)\\</script\\>\\| \\*\\*x\\*\\* \\[a\\]\\(javascript:1\\) \\[31mred');
    expect(md).not.toMatch(/\u001b|\u0007/);
  });

  it('markdown forms no entity and no GFM autolink from data; the notice stays a link', () => {
    const d = data(healthy);
    const note = '&rlm;R&amp;D see https://evil.example/pay, www.evil.example or pay@evil.example';
    d.cases[0]!.events[1]!.note = note;
    d.cases[0]!.recall!.source_url = 'https://rappel.conso.gouv.fr/fiche-rappel/1|2?a=1&b=2';
    const md = reportMarkdown(d);
    // `\&` shows `&` (no `&rlm;`, no `&amp;` read as `&`); `\:` and `\.` show `:` and `.`, and no GFM web autolink
    // starts (www. and http:// autolinks start from the source text). An e-mail address stays as written, to be copied.
    expect(md).toContain('| \\&rlm;R\\&amp;D see https\\://evil.example/pay, www\\.evil.example or pay@evil.example |');
    expect(md).not.toMatch(/https:\/\/evil|www\.evil/);
    expect(md).toContain(
      '| Notice | [https\\://rappel.conso.gouv.fr/fiche-rappel/1\\|2?a=1\\&b=2](<https://rappel.conso.gouv.fr/fiche-rappel/1%7C2?a=1&b=2>) |',
    );
    for (const url of ['javascript:alert(1)', 'https://x.example/a"b', 'data:text/html,x']) {
      d.cases[0]!.recall!.source_url = url;
      expect(reportMarkdown(d)).not.toContain('](');
    }
  });

  it('the statement: the other rows, as of the last ok sync, then the verdict once', () => {
    expect(statement(catalogue, healthy.last_ok_sync, '2026-03-03T00:00:00.000Z', verdictOf(healthy))).toEqual({
      text: 'No match was found for the other 9 rows as of 2026-03-02 00:00:00 UTC. Monitoring was complete over the period: 3 successful syncs, none failed or interrupted, no gap, every source the key may use synced.',
      incomplete: false,
      as_of: '2026-03-02T00:00:00.000Z',
      rows_without_match: 9,
    });
    const gappy = {
      ...healthy,
      complete: false,
      gaps: [
        { from: 'a', to: 'b', hours: 30 },
        { from: 'c', to: 'd', hours: 1.5 },
      ],
    };
    const s = statement(catalogue, gappy.last_ok_sync, '2026-03-03T00:00:00.000Z', verdictOf(gappy));
    expect(s.incomplete).toBe(true);
    expect(s.text).toBe(
      'No match was found for the other 9 rows as of 2026-03-02 00:00:00 UTC. INCOMPLETE: 2 gaps between syncs that no sync covered (31.5 h). Recalls that monitoring did not reach may not have been checked.',
    );
    const failed = {
      ...healthy,
      complete: false,
      runs: { ok: 0, failed: 2, interrupted: 0 },
      last_ok_sync: null,
      sources_missing: ['us_cpsc', 'uk_opss'],
    };
    const never = statement(null, failed.last_ok_sync, 'T', verdictOf(failed));
    expect(never).toMatchObject({ incomplete: true, rows_without_match: null, as_of: 'T' });
    // With no sync at all, the sources none covered are every source: not said a second time.
    expect(never.text).toContain('INCOMPLETE: no sync succeeded; 2 syncs failed.');
    const unchecked = { ...healthy, complete: false };
    expect(
      statement(catalogue, unchecked.last_ok_sync, '2026-03-03T00:00:00.000Z', verdictOf(unchecked, false)).text,
    ).toContain('INCOMPLETE: the sources the key may use were not checked');
    for (const text of [s.text, never.text, reportHtml(data(gappy)).replaceAll('Safety', '')])
      expect(text).not.toMatch(/\bsafe\b|all clear/i);
    expect(reportHtml(data(gappy))).toContain('<p class="statement incomplete">');
  });
});

describe('report times', () => {
  it('read a time without an offset as UTC, convert one with an offset, and leave what is not a time as it is', () => {
    expect(readable('2026-01-14T17:00:00')).toBe('2026-01-14 17:00:00 UTC');
    expect(readable('2026-01-14T17:00:00+02:00')).toBe('2026-01-14 15:00:00 UTC');
    expect(minute('2026-01-14T17:05:09.5Z')).toBe('2026-01-14 17:05 UTC');
    expect(readable('soon')).toBe('soon');
    expect(readable(null)).toBe('');
  });
});
