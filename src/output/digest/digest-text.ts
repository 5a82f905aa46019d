// The digest as terminal text (the look of `stats`: sections and bar charts) and as Markdown.
import { barChart } from '../bar-chart.js';
import { escapeMarkdown as md } from '../markup.js';
import { groupDigits } from '../numbers.js';
import { describeItem, plain } from '../recall-text.js';
import { shorten } from '../shorten.js';
import { type Digest, digestSubject, healthLines, matchesLine, recallsLine } from './digest-view.js';
import {
  type DeadlineRow,
  deadlineFacts,
  deadlineProduct,
  deadlineTag,
  deadlinesLine,
  deadlinesMore,
  deadlineTitle,
} from './deadline-text.js';
import { fitting, fittingLists, fittingSkip, wireBytes, withinBudget } from './fit-budget.js';
import type { HtmlBudget } from './digest-html.js';
import { levelTag, productFacts, productName, type ProductRow, productsMore, productTitle } from './product-text.js';

function itemText(item: Record<string, unknown>): string[] {
  const d = describeItem(item);
  const published = plain(item, 'published_at');
  return [
    `  ${d.title}`,
    `    ${d.facts}${published ? ` · published ${published}` : ''}`,
    ...(d.link ? [`    ${d.link}`] : []),
  ];
}

/** A product, three or four lines: level and name, the recall, its facts, the link. */
function productText(p: ProductRow): string[] {
  return [
    `  ${levelTag(p)}  ${shorten(productName(p), 200)}`,
    `    ${productTitle(p)}`,
    `    ${shorten(productFacts(p), 400)}`,
    ...(p.source_url ? [`    ${p.source_url}`] : []),
  ];
}

/** A case with a deadline, three lines: how late, the product, the recall, the case's facts. */
function deadlineText(r: DeadlineRow, asOf: string): string[] {
  return [`  ${deadlineTag(r)}  ${deadlineProduct(r)}`, `    ${deadlineTitle(r)}`, `    ${deadlineFacts(r, asOf)}`];
}

/** The deadlines, first; with a budget, at most `maxBytes` of them (as sent), then how many more. */
function deadlineLines(d: Digest, maxBytes = Number.POSITIVE_INFINITY): string[] {
  const { deadlines } = d;
  if (deadlines.cases.length === 0) return [];
  const out = ['', 'deadlines', `  ${deadlinesLine(deadlines)}`];
  const { shown } = fitting(deadlines.cases, (r) => deadlineText(r, deadlines.as_of).join('\n'), maxBytes, '\n');
  out.push(...shown);
  if (shown.length < deadlines.cases.length) out.push(`  ${deadlinesMore(deadlines.cases.slice(shown.length))}`);
  return out;
}

/**
 * Plain text, `width` columns for the charts. With a budget (the e-mail's text part), as the HTML part: your
 * products, then recalls, as they fit within `maxBytes` as sent, then how many more the attachment holds.
 */
export function digestText(d: Digest, width: number, budget?: HtmlBudget): string {
  if (budget === undefined) return textWithRoom(d, width, Number.POSITIVE_INFINITY);
  // The fixed lines (subject, monitoring, charts, notes) take what they take; the lists share the rest.
  const fixed = wireBytes(textWithRoom(d, width, 0, budget));
  return withinBudget((room) => textWithRoom(d, width, room, budget), budget.maxBytes - fixed, budget.maxBytes);
}

/** The text with `room` bytes (as sent) for its lists: deadlines (within 30 % of a budget), products, recalls. */
function textWithRoom(d: Digest, width: number, room: number, budget?: HtmlBudget): string {
  const head = [digestSubject(d), `period ${d.period.from} to ${d.period.to}`];
  const health = ['', 'monitoring', ...healthLines(d, budget ? { gapsShown: 10 } : {}).map((l) => `  ${l}`)];
  health.push('', recallsLine(d));
  // Deadlines take at most 30 % of an e-mail part: your products and monitoring keep their room.
  const deadlines = deadlineLines(d, budget ? Math.min(room, budget.maxBytes * 0.3) : undefined);
  room -= wireBytes(deadlines.slice(3).join('\n'));
  const out = [...head, ...deadlines];
  const matches = matchesLine(d);
  if (matches !== undefined) {
    out.push('', `your products`, `  ${matches}`);
    const products = fittingSkip(d.products ?? [], (p) => productText(p).join('\n'), room, '\n');
    out.push(...products.shown);
    room -= products.used;
    if (products.left.length > 0) out.push(`  ${productsMore(products.left, budget?.attachment)}`);
  }
  out.push(...health);
  const lists = [
    ['new', d.recalls.new],
    ['updated', d.recalls.updated],
  ] as const;
  const recalls = fittingLists(
    lists.map(([, list]) => list),
    (item) => itemText(item).join('\n'),
    room,
    '\n',
  );
  for (const [i, [title, list]] of lists.entries()) {
    if (list.length === 0) continue;
    out.push('', `${title} (${groupDigits(list.length)})`, ...recalls.shown[i]!);
  }
  if (recalls.left > 0)
    out.push(
      '',
      `… and ${groupDigits(recalls.left)} more recalls: every recall of the period is in the attached ${budget?.attachment}.`,
    );
  if (d.counts.by_severity.length > 0) {
    out.push('');
    out.push(
      barChart(
        { title: 'severity', rows: d.counts.by_severity.map((c) => ({ label: c.value, count: c.count })) },
        width,
      ).trimEnd(),
    );
    out.push('');
    out.push(
      barChart(
        { title: 'source', rows: d.counts.by_source.map((c) => ({ label: c.value, count: c.count })) },
        width,
      ).trimEnd(),
    );
  }
  return `${out.join('\n')}\n`;
}

function itemMarkdown(item: Record<string, unknown>): string {
  const d = describeItem(item);
  const title = d.link ? `[${md(d.title)}](<${d.link.replace(/[<>]/g, '')}>)` : `**${md(d.title)}**`;
  const published = plain(item, 'published_at');
  return `- ${title}  \n  ${md(d.facts)}${published ? ` · published ${md(published)}` : ''}`;
}

function productMarkdown(p: ProductRow): string {
  const title = md(productTitle(p));
  const recall = p.source_url ? `[${title}](<${p.source_url.replace(/[<>]/g, '')}>)` : title;
  return `- **${md(levelTag(p))}** ${md(shorten(productName(p), 200))}: ${recall}  \n  ${md(shorten(productFacts(p), 400))}`;
}

function deadlineMarkdown(r: DeadlineRow, asOf: string): string {
  const when = r.state === 'overdue' ? '**OVERDUE**' : '**due soon**';
  return `- ${when} ${md(deadlineProduct(r))}: ${md(deadlineTitle(r))}  \n  ${md(deadlineFacts(r, asOf))}`;
}

export function digestMarkdown(d: Digest): string {
  const out = [`# ${md(digestSubject(d))}`, '', `Period: ${md(d.period.from)} to ${md(d.period.to)}`];
  if (d.deadlines.cases.length > 0) {
    out.push('', '## Deadlines', '', md(deadlinesLine(d.deadlines)), '');
    for (const r of d.deadlines.cases) out.push(deadlineMarkdown(r, d.deadlines.as_of));
  }
  const matches = matchesLine(d);
  if (matches !== undefined) {
    out.push('', '## Your products', '', md(matches), '');
    for (const p of d.products ?? []) out.push(productMarkdown(p));
  }
  out.push('', '## Monitoring', '');
  for (const line of healthLines(d)) out.push(`- ${md(line)}`);
  out.push('', md(recallsLine(d)));
  for (const [title, list] of [
    ['New', d.recalls.new],
    ['Updated', d.recalls.updated],
  ] as const) {
    if (list.length === 0) continue;
    out.push('', `## ${title} (${groupDigits(list.length)})`, '');
    for (const item of list) out.push(itemMarkdown(item));
  }
  if (d.counts.by_severity.length > 0) {
    out.push('', '## Counts', '', '| severity | recalls |', '| --- | ---: |');
    for (const c of d.counts.by_severity) out.push(`| ${md(c.value)} | ${c.count} |`);
    out.push('', '| source | recalls |', '| --- | ---: |');
    for (const c of d.counts.by_source) out.push(`| ${md(c.value)} | ${c.count} |`);
  }
  return `${out.join('\n')}\n`;
}
