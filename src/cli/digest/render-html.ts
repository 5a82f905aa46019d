// The digest as one self-contained HTML page: inline CSS, no script, no external resource; printable.
import { describeItem, plain } from '../../actions/email-message.js';
import { escapeHtml } from '../../output/markup.js';
import { type Digest, digestSubject, healthLines, matchesLine, recallsLine } from './digest-model.js';

const CSS = `
body{font-family:-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:14px;color:#111;max-width:60em;margin:1.5em auto;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.5em}
.health{padding:.6em 1em;border-left:5px solid}.complete{border-color:#2a7a2a;background:#eef7ee}.incomplete{border-color:#b00020;background:#fdecee}
.recall{margin:.6em 0;break-inside:avoid}.facts{color:#444}.sev{display:inline-block;min-width:5em;font-weight:bold}
.sev-serious{color:#b00020}.sev-high{color:#c65d00}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.n{text-align:right}a{color:#0645ad}@media print{body{margin:0;max-width:none}a{color:#000}.health{border-width:3px}}
`;

function recallHtml(item: Record<string, unknown>): string {
  const d = describeItem(item);
  const sev = plain(item, 'risk_severity').toLowerCase();
  const title = d.link ? `<a href="${escapeHtml(d.link)}">${escapeHtml(d.title)}</a>` : escapeHtml(d.title);
  const published = plain(item, 'published_at');
  return `<div class="recall"><span class="sev sev-${escapeHtml(sev.replace(/[^a-z]/g, ''))}">${escapeHtml(sev || '–')}</span> ${title}<div class="facts">${escapeHtml(d.facts)}${published ? ` · published ${escapeHtml(published)}` : ''}</div></div>`;
}

function countTable(title: string, rows: Digest['counts']['by_severity']): string {
  const body = rows.map((c) => `<tr><td>${escapeHtml(c.value)}</td><td class="n">${c.count}</td></tr>`).join('');
  return `<table><tr><th>${title}</th><th>recalls</th></tr>${body}</table>`;
}

export function digestHtml(d: Digest): string {
  const subject = digestSubject(d);
  const parts = [
    `<h1>${escapeHtml(subject)}</h1>`,
    `<p>Period: ${escapeHtml(d.period.from)} to ${escapeHtml(d.period.to)}</p>`,
    `<div class="health ${d.health.complete ? 'complete' : 'incomplete'}">${healthLines(d)
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('')}</div>`,
    `<p>${escapeHtml(recallsLine(d))}</p>`,
  ];
  for (const [title, list] of [
    ['New', d.recalls.new],
    ['Updated', d.recalls.updated],
  ] as const) {
    if (list.length > 0) parts.push(`<h2>${title} (${list.length})</h2>${list.map(recallHtml).join('')}`);
  }
  if (d.counts.by_severity.length > 0) {
    parts.push(
      `<h2>Counts</h2>${countTable('severity', d.counts.by_severity)}<br>${countTable('source', d.counts.by_source)}`,
    );
  }
  const matches = matchesLine(d);
  if (matches !== undefined) {
    const rows = (d.matches ?? [])
      .map(
        (r) =>
          `<tr><td>${escapeHtml(plain(r, 'level'))}</td><td>${escapeHtml(plain(r, 'reason'))}</td><td class="n">${escapeHtml(plain(r, 'catalog_line'))}</td><td>${escapeHtml(plain(r, 'recall_id'))}</td><td>${escapeHtml(plain(r, 'alert_title'))}</td></tr>`,
      )
      .join('');
    parts.push(
      `<h2>Catalogue</h2><p>${escapeHtml(matches)}</p>${rows ? `<table><tr><th>level</th><th>reason</th><th>line</th><th>recall</th><th>title</th></tr>${rows}</table>` : ''}`,
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title><style>${CSS}</style></head>
<body>
${parts.join('\n')}
</body></html>
`;
}
