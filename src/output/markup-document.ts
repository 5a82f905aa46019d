// The generic parts of the HTML and Markdown documents (the digest, the report): the page frame and tables, every text escaped.
import { escapeHtml, escapeMarkdown } from './markup.js';

/** One self-contained HTML page: inline CSS, no script, nothing loaded from anywhere. `body` is markup already escaped. */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** An HTML table of text cells: every header and cell escaped; `cls` its class (trusted, from the code). */
export function htmlTable(header: readonly string[], rows: readonly string[][], cls = ''): string {
  const head = `<tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}>\n${head}\n${body}\n</table>`;
}

/** A Markdown table of text cells, each one line with every character Markdown acts on escaped (pipes too). */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  return [
    `| ${header.map(escapeMarkdown).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(escapeMarkdown).join(' | ')} |`),
  ].join('\n');
}
