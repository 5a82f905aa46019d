// The report as one self-contained printable HTML page: inline CSS, no script, nothing loaded from anywhere.
import { escapeHtml as esc } from '../../output/markup.js';
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
.case { border: 1px solid #bbb; padding: 0.6em 0.8em; margin: 0.8em 0; break-inside: avoid; page-break-inside: avoid; }
.hash { font-family: ui-monospace, monospace; font-size: 0.8em; word-break: break-all; }
.note { white-space: pre-wrap; }
@page { margin: 1.5cm; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } }
`;

function facts(rows: Array<[string, string]>): string {
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function caseHtml(c: ReportCase): string {
  const events = c.events
    .map(
      (e) =>
        `<tr><td>${e.seq}</td><td>${esc(e.at)}</td><td>${esc(e.action)}${e.action === 'resolved' && e.outcome ? `: ${esc(e.outcome)}` : ''}</td><td>${esc(e.status)}</td><td>${esc(e.actor)}</td><td class="note">${esc(e.note ?? '')}</td></tr>`,
    )
    .join('');
  return `<article class="case">
<h3>${esc(caseTitle(c))}</h3>
<p>Recall ${c.recall_id}: ${esc(c.alert_title ?? '')}<br>Catalogue row ${esc(c.catalog_key)}: ${esc(rowText(c))}<br>Opened ${esc(c.opened_at)}</p>
<table><tr><th>#</th><th>When</th><th>What</th><th>Status</th><th>By</th><th>Note</th></tr>${events}</table>
</article>`;
}

export function reportHtml(d: ReportData): string {
  const statementClass = d.statement.incomplete ? 'statement incomplete' : 'statement';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(d.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(d.title)}</h1>
<p class="meta">Period: ${esc(periodText(d))} · generated ${esc(d.generated_at)}</p>
<h2>Statement</h2>
<p class="${statementClass}">${esc(d.statement.text)}</p>
<h2>Coverage</h2>
${facts(catalogueFacts(d))}
<h3>Monitoring health</h3>
${facts(healthFacts(d))}
<h2>Cases</h2>
<p>${esc(summaryText(d))}</p>
${d.cases.map(caseHtml).join('\n')}
<h2>Timeline integrity</h2>
<p>${esc(chainText(d))}</p>
<p class="meta">${esc(CHAIN_NOTE)}</p>
</body>
</html>
`;
}
