// The report as one self-contained printable HTML page: inline CSS, no script, nothing loaded from anywhere.
import { escapeHtml as esc } from '../markup.js';
import { htmlPage, htmlTable } from '../markup-document.js';
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

const STYLE = `
body { font: 11pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; margin: 2em auto; max-width: 60em; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #999; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: 0 0 0.3em; }
table { border-collapse: collapse; width: 100%; margin: 0.4em 0; }
th, td { text-align: left; vertical-align: top; border: 1px solid #ccc; padding: 0.25em 0.5em; }
th { background: #f2f2f2; }
.facts th { width: 40%; }
.meta { color: #444; }
.statement { font-size: 1.1em; padding: 0.6em 0.8em; border-left: 4px solid #2a6; background: #f4faf6; }
.statement.incomplete { border-color: #c60; background: #fff7ee; }
.answer { font-size: 1.15em; font-weight: bold; }
.case { border: 1px solid #bbb; padding: 0.6em 0.8em; margin: 0.8em 0; break-inside: avoid; page-break-inside: avoid; }
table.summary, table.uncased, table.excluded { font-size: 0.85em; }
.hash { font-family: ui-monospace, monospace; font-size: 0.8em; word-break: break-all; }
.note { white-space: pre-wrap; }
@page { margin: 1.5cm; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } }
`;

function facts(rows: Array<[string, string]>): string {
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${cell(k, v)}</td></tr>`).join('')}</table>`;
}

/**
 * A fact's value, escaped; the notice's address is a link when it is a plain http(s) URL (nothing is loaded by
 * it, and no other scheme ever becomes one), so an auditor can open the authority's page.
 */
function cell(label: string, value: string): string {
  const href = noticeHref(label, value);
  return href === undefined ? esc(value) : `<a href="${esc(href)}" rel="noreferrer noopener">${esc(value)}</a>`;
}

function caseHtml(c: ReportCase): string {
  return `<article class="case" id="case-${esc(c.id)}">
<h3>${esc(caseTitle(c))}</h3>
${facts(caseFacts(c))}
${htmlTable(EVENT_HEADER, eventRows(c), 'events')}
</article>`;
}

export function reportHtml(d: ReportData): string {
  const statementClass = d.statement.incomplete ? 'statement incomplete' : 'statement';
  const uncased = d.coverage.catalogue?.matches_without_case ?? [];
  const notOpened = d.coverage.catalogue?.not_opened ?? [];
  const excluded = d.coverage.catalogue?.excluded ?? [];
  const verify = d.coverage.catalogue?.to_verify ?? [];
  return htmlPage(
    d.title,
    STYLE,
    `<h1>${esc(d.title)}</h1>
<p class="meta">Period: ${esc(periodText(d))} · generated ${esc(readable(d.generated_at))}</p>
<p class="answer">${esc(answerText(d))}</p>
<h2>Summary</h2>
<p>${esc(summaryText(d))}</p>
${htmlTable(SUMMARY_HEADER, d.cases.map(summaryRow), 'summary')}
<h2>Statement</h2>
<p class="${statementClass}">${esc(d.statement.text)}</p>
${uncased.length > 0 ? `<h3>Matches without a case</h3>\n${htmlTable(UNCASED_HEADER, uncased.map(uncasedRow), 'uncased')}` : ''}
${notOpened.length > 0 ? `<h3>${esc(notOpenedHeading(d))}</h3>\n${htmlTable(UNCASED_HEADER, notOpened.map(uncasedRow), 'uncased')}` : ''}
${verify.length > 0 ? `<h3>${esc(VERIFY_HEADING)}</h3>\n<p class="meta">${esc(VERIFY_NOTE)}</p>\n${htmlTable(VERIFY_HEADER, verify.map(verifyRow), 'excluded')}` : ''}
${excluded.length > 0 ? `<h3>${esc(EXCLUDED_HEADING)}</h3>\n<p class="meta">${esc(EXCLUDED_NOTE)}</p>\n${htmlTable(EXCLUDED_HEADER, excluded.map(excludedRow), 'excluded')}` : ''}
<h2>Time to action</h2>
${facts(timeFacts(d))}
<h2>Coverage</h2>
${facts(catalogueFacts(d))}
<h3>Monitoring health</h3>
${facts(healthFacts(d))}
<h2>Cases</h2>
${d.cases.map(caseHtml).join('\n')}
<h2>Timeline integrity</h2>
<p>${esc(chainText(d))}</p>
<p class="meta">${esc(CHAIN_NOTE)}</p>
<h2>Provenance</h2>
${facts(provenanceFacts(d))}`,
  );
}
