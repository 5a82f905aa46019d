// The digest as one self-contained HTML page: inline CSS, no script, no external resource; printable.
import { escapeHtml } from '../markup.js';
import { htmlPage } from '../markup-document.js';
import { groupDigits } from '../numbers.js';
import { describeItem, plain } from '../recall-text.js';
import { shorten } from '../shorten.js';
import { fitting, fittingLists, fittingSkip, wireBytes, withinBudget } from './fit-budget.js';
import { type Digest, digestSubject, healthLines, matchesLine, recallsLine } from './digest-view.js';
import {
  type DeadlineRow,
  deadlineProduct,
  deadlinesLine,
  deadlinesMore,
  deadlineTitle,
  deadlineWhen,
  dueText,
} from './deadline-text.js';
import { productName, type ProductRow, productsMore, productTitle, scopeNote } from './product-text.js';

// A long word (a name, a link) may break anywhere in a cell: else it widens its column and pushes the last ones (the
// case) out of the window.
const CSS = `
body{font-family:-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:14px;color:#111;max-width:60em;margin:1.5em auto;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.5em}
.health{padding:.6em 1em;border-left:5px solid}.complete{border-color:#2a7a2a;background:#eef7ee}.incomplete{border-color:#b00020;background:#fdecee}
.recall{margin:.6em 0;break-inside:avoid}.facts{color:#444}.sev{display:inline-block;min-width:5em;font-weight:bold}
.late{color:#b00020;font-weight:bold}.sev-serious{color:#b00020}.sev-high{color:#c65d00}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.n{text-align:right}td{overflow-wrap:anywhere}table.products{width:100%}a{color:#0645ad}@media print{body{margin:0;max-width:none}a{color:#000}.health{border-width:3px}}
`;

/** A severity as a CSS class suffix (`sev-serious`): letters only, so hostile text cannot leave the attribute. */
const sevClass = (severity: string) => severity.toLowerCase().replace(/[^a-z]/g, '');

function recallHtml(item: Record<string, unknown>): string {
  const d = describeItem(item);
  const sev = plain(item, 'risk_severity').toLowerCase();
  const title = d.link ? `<a href="${escapeHtml(d.link)}">${escapeHtml(d.title)}</a>` : escapeHtml(d.title);
  const published = plain(item, 'published_at');
  return `<div class="recall"><span class="sev sev-${sevClass(sev)}">${escapeHtml(sev || '–')}</span> ${title}<div class="facts">${escapeHtml(d.facts)}${published ? ` · published ${escapeHtml(published)}` : ''}</div></div>`;
}

function countTable(title: string, rows: Digest['counts']['by_severity']): string {
  const body = rows.map((c) => `<tr><td>${escapeHtml(c.value)}</td><td class="n">${c.count}</td></tr>`).join('');
  return `<table><tr><th>${title}</th><th>recalls</th></tr>${body}</table>`;
}

function productHtml(p: ProductRow): string {
  const title = escapeHtml(productTitle(p));
  const recall = p.source_url ? `<a href="${escapeHtml(p.source_url)}">${title}</a>` : title;
  const sev = sevClass(p.risk_severity ?? '');
  const why = scopeNote(p);
  const kase =
    p.case === null
      ? '–'
      : `case ${p.case.id} ${escapeHtml(p.case.status)}${p.case.due_at !== null ? `, due ${escapeHtml(p.case.due_at)}` : ''}`;
  return `<tr><td><b>${escapeHtml(p.level)}</b></td><td>${escapeHtml(shorten(productName(p), 200))}</td><td>${recall}</td><td class="sev-${sev}">${escapeHtml(p.risk_severity ?? '–')}</td><td>${escapeHtml(shorten(p.hazard ?? '–', 300))}</td><td>${escapeHtml(p.data_source ?? '–')}</td><td>${escapeHtml(p.reason)}${why === null ? '' : `<br>${escapeHtml(shorten(why, 400))}`}</td><td>${kase}</td></tr>`;
}

function deadlineHtml(r: DeadlineRow, asOf: string): string {
  const sev = sevClass(r.risk_severity ?? '');
  const when = `<td${r.state === 'overdue' ? ' class="late"' : ''}>${escapeHtml(deadlineWhen(r, asOf))}</td>`;
  return `<tr>${when}<td>${escapeHtml(dueText(r.due_at))}</td><td>case ${r.case_id} ${escapeHtml(r.status)}</td><td>${escapeHtml(deadlineProduct(r))}</td><td>${escapeHtml(deadlineTitle(r))}</td><td class="sev-${sev}">${escapeHtml(r.risk_severity ?? '–')}</td><td>${escapeHtml(r.level)}</td></tr>`;
}

const DEADLINE_HEAD =
  '<tr><th>when</th><th>due (UTC)</th><th>case</th><th>product</th><th>recall</th><th>severity</th><th>level</th></tr>';

const PRODUCT_HEAD =
  '<tr><th>level</th><th>product</th><th>recall</th><th>severity</th><th>hazard</th><th>source</th><th>why</th><th>case</th></tr>';

/** Budgets for the e-mail: `maxBytes` for the whole page; `attachment` names the CSV that lists every recall. */
export interface HtmlBudget {
  maxBytes: number;
  attachment: string;
}

/**
 * One page, your products first. With a budget (the e-mail), deadlines, your products and the period's recalls
 * fill what the page's fixed parts leave of `maxBytes` as sent, then say how many more the attachment holds.
 */
export function digestHtml(d: Digest, budget?: HtmlBudget): string {
  if (budget === undefined) return htmlWithRoom(d, Number.POSITIVE_INFINITY);
  const fixed = wireBytes(htmlWithRoom(d, 0, budget));
  return withinBudget((room) => htmlWithRoom(d, room, budget), budget.maxBytes - fixed, budget.maxBytes);
}

/** The page with `room` bytes (as sent) for its lists: deadlines (within 30 % of a budget), products, recalls. */
function htmlWithRoom(d: Digest, room: number, budget?: HtmlBudget): string {
  const subject = digestSubject(d);
  const top = [
    `<h1>${escapeHtml(subject)}</h1>`,
    `<p>Period: ${escapeHtml(d.period.from)} to ${escapeHtml(d.period.to)}</p>`,
  ];
  const matches = matchesLine(d);
  const products = d.products ?? [];
  const health = `<div class="health ${d.health.complete ? 'complete' : 'incomplete'}">${healthLines(
    d,
    budget ? { gapsShown: 10 } : {},
  )
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('')}</div>`;
  const counts =
    d.counts.by_severity.length > 0
      ? `<h2>Counts</h2>${countTable('severity', d.counts.by_severity)}<br>${countTable('source', d.counts.by_source)}`
      : '';
  const page = (middle: string[]) => htmlPage(subject, CSS, [...top, ...middle, counts].join('\n'));
  // Deadlines first, within 30 % of the budget: your products and monitoring keep their room.
  const due = d.deadlines.cases;
  const cap = budget ? Math.min(room, budget.maxBytes * 0.3) : room;
  const { shown: deadlines, used: deadlineBytes } = fitting(due, (r) => deadlineHtml(r, d.deadlines.as_of), cap);
  room -= deadlineBytes;
  const { shown: productRows, used: productBytes, left: productsLeft } = fittingSkip(products, productHtml, room);
  room -= productBytes;
  const middle: string[] = [];
  if (due.length > 0)
    middle.push(
      `<h2>Deadlines</h2><p>${escapeHtml(deadlinesLine(d.deadlines))}</p><table>${DEADLINE_HEAD}${deadlines.join('')}</table>${
        deadlines.length < due.length ? `<p>${escapeHtml(deadlinesMore(due.slice(deadlines.length)))}.</p>` : ''
      }`,
    );
  if (matches !== undefined) {
    middle.push(
      `<h2>Your products</h2><p>${escapeHtml(matches)}</p>${productRows.length > 0 ? `<table class="products">${PRODUCT_HEAD}${productRows.join('')}</table>` : ''}`,
    );
    if (productsLeft.length > 0) middle.push(`<p>${escapeHtml(productsMore(productsLeft, budget?.attachment))}</p>`);
  }
  middle.push(health, `<p>${escapeHtml(recallsLine(d))}</p>`);
  const lists = [
    ['New', d.recalls.new],
    ['Updated', d.recalls.updated],
  ] as const;
  // As the text part: once a list is cut, the lists after it show nothing, and the closing note counts them all.
  const { shown, left } = fittingLists(
    lists.map(([, list]) => list),
    recallHtml,
    room,
  );
  for (const [i, [title, list]] of lists.entries()) {
    if (list.length === 0) continue;
    middle.push(`<h2>${title} (${groupDigits(list.length)})</h2>${shown[i]!.join('')}`);
  }
  if (left > 0)
    middle.push(
      `<p><b>… and ${groupDigits(left)} more recalls.</b> Every recall of the period is in the attached ${escapeHtml(budget?.attachment ?? 'file')}.</p>`,
    );
  return page(middle);
}
