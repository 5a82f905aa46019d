// The report as Markdown: the same sections as the HTML page, every value escaped so data cannot add markup.
import { escapeMarkdown as md } from '../../output/markup.js';
import type { ReportCase, ReportData } from './report-data.js';
import {
  CHAIN_NOTE,
  caseTitle,
  catalogueFacts,
  chainText,
  healthFacts,
  periodText,
  rowText,
  summaryText,
} from './report-words.js';

function facts(rows: Array<[string, string]>): string {
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${md(k)} | ${md(v)} |`)].join('\n');
}

function caseMd(c: ReportCase): string {
  const events = c.events.map(
    (e) =>
      `| ${e.seq} | ${md(e.at)} | ${md(e.action)}${e.action === 'resolved' && e.outcome ? `: ${md(e.outcome)}` : ''} | ${md(e.status)} | ${md(e.actor)} | ${md(e.note ?? '')} |`,
  );
  return [
    `### ${md(caseTitle(c))}`,
    '',
    `Recall ${c.recall_id}: ${md(c.alert_title ?? '')}  `,
    `Catalogue row ${md(c.catalog_key)}: ${md(rowText(c))}  `,
    `Opened ${md(c.opened_at)}`,
    '',
    '| # | When | What | Status | By | Note |',
    '|---|---|---|---|---|---|',
    ...events,
  ].join('\n');
}

export function reportMarkdown(d: ReportData): string {
  const statement = d.statement.incomplete ? `**Incomplete.** ${md(d.statement.text)}` : md(d.statement.text);
  return `${[
    `# ${md(d.title)}`,
    '',
    `Period: ${md(periodText(d))} · generated ${md(d.generated_at)}`,
    '',
    '## Statement',
    '',
    statement,
    '',
    '## Coverage',
    '',
    facts(catalogueFacts(d)),
    '',
    '### Monitoring health',
    '',
    facts(healthFacts(d)),
    '',
    '## Cases',
    '',
    md(summaryText(d)),
    '',
    ...d.cases.flatMap((c) => [caseMd(c), '']),
    '## Timeline integrity',
    '',
    md(chainText(d)),
    '',
    md(CHAIN_NOTE),
  ].join('\n')}\n`;
}
