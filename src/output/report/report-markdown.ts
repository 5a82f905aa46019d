// The report as Markdown: the same sections as the HTML page, every value escaped so data cannot add markup.
import { escapeMarkdown as md } from '../markup.js';
import { markdownTable } from '../markup-document.js';
import type { ReportCase, ReportData } from './report-model.js';
import {
  answerText,
  CHAIN_NOTE,
  caseFacts,
  caseTitle,
  catalogueFacts,
  chainText,
  EVENT_HEADER,
  eventRows,
  EXCLUDED_HEADER,
  EXCLUDED_HEADING,
  EXCLUDED_NOTE,
  excludedRow,
  VERIFY_HEADER,
  VERIFY_HEADING,
  VERIFY_NOTE,
  verifyRow,
  healthFacts,
  noticeHref,
  notOpenedHeading,
  periodText,
  provenanceFacts,
  readable,
  SUMMARY_HEADER,
  summaryRow,
  summaryText,
  timeFacts,
  UNCASED_HEADER,
  uncasedRow,
} from './report-words.js';

/** A fact's value, escaped; the notice's address a link as in the HTML page (its text escaped, so nothing else links). */
function cell(label: string, value: string): string {
  const href = noticeHref(label, value);
  return href === undefined ? md(value) : `[${md(value)}](<${href.replace(/\|/g, '%7C')}>)`;
}

function facts(rows: Array<[string, string]>): string {
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${md(k)} | ${cell(k, v)} |`)].join('\n');
}

function caseMd(c: ReportCase): string {
  return [`### ${md(caseTitle(c))}`, '', facts(caseFacts(c)), '', markdownTable(EVENT_HEADER, eventRows(c))].join('\n');
}

export function reportMarkdown(d: ReportData): string {
  const statement = d.statement.incomplete ? `**Incomplete.** ${md(d.statement.text)}` : md(d.statement.text);
  const uncased = d.coverage.catalogue?.matches_without_case ?? [];
  const notOpened = d.coverage.catalogue?.not_opened ?? [];
  const excluded = d.coverage.catalogue?.excluded ?? [];
  const verify = d.coverage.catalogue?.to_verify ?? [];
  return `${[
    `# ${md(d.title)}`,
    '',
    `Period: ${md(periodText(d))} · generated ${md(readable(d.generated_at))}`,
    '',
    `**${md(answerText(d))}**`,
    '',
    '## Summary',
    '',
    md(summaryText(d)),
    '',
    markdownTable(SUMMARY_HEADER, d.cases.map(summaryRow)),
    '',
    '## Statement',
    '',
    statement,
    '',
    ...(uncased.length > 0
      ? ['### Matches without a case', '', markdownTable(UNCASED_HEADER, uncased.map(uncasedRow)), '']
      : []),
    ...(notOpened.length > 0
      ? [`### ${md(notOpenedHeading(d))}`, '', markdownTable(UNCASED_HEADER, notOpened.map(uncasedRow)), '']
      : []),
    ...(verify.length > 0
      ? [`### ${md(VERIFY_HEADING)}`, '', md(VERIFY_NOTE), '', markdownTable(VERIFY_HEADER, verify.map(verifyRow)), '']
      : []),
    ...(excluded.length > 0
      ? [
          `### ${md(EXCLUDED_HEADING)}`,
          '',
          md(EXCLUDED_NOTE),
          '',
          markdownTable(EXCLUDED_HEADER, excluded.map(excludedRow)),
          '',
        ]
      : []),
    '## Time to action',
    '',
    facts(timeFacts(d)),
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
    ...d.cases.flatMap((c) => [caseMd(c), '']),
    '## Timeline integrity',
    '',
    md(chainText(d)),
    '',
    md(CHAIN_NOTE),
    '',
    '## Provenance',
    '',
    facts(provenanceFacts(d)),
  ].join('\n')}\n`;
}
