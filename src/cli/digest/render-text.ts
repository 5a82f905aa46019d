// The digest as terminal text (the look of `stats`: sections and bar charts) and as Markdown.
import { describeItem, plain } from '../../actions/email-message.js';
import { barChart } from '../../output/bar-chart.js';
import { escapeMarkdown as md } from '../../output/markup.js';
import { type Digest, digestSubject, healthLines, matchesLine, recallsLine } from './digest-model.js';

function itemText(item: Record<string, unknown>): string[] {
  const d = describeItem(item);
  const published = plain(item, 'published_at');
  return [
    `  ${d.title}`,
    `    ${d.facts}${published ? ` · published ${published}` : ''}`,
    ...(d.link ? [`    ${d.link}`] : []),
  ];
}

function matchText(row: Record<string, unknown>): string {
  return `  ${plain(row, 'level')} (${plain(row, 'reason')}) · catalogue line ${plain(row, 'catalog_line')} · recall ${plain(row, 'recall_id')}: ${plain(row, 'alert_title')}`;
}

/** Plain text, `width` columns for the charts. */
export function digestText(d: Digest, width: number): string {
  const out = [digestSubject(d), `period ${d.period.from} to ${d.period.to}`, '', 'monitoring'];
  for (const line of healthLines(d)) out.push(`  ${line}`);
  out.push('', recallsLine(d));
  for (const [title, list] of [
    ['new', d.recalls.new],
    ['updated', d.recalls.updated],
  ] as const) {
    if (list.length === 0) continue;
    out.push('', `${title} (${list.length})`);
    for (const item of list) out.push(...itemText(item));
  }
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
  const matches = matchesLine(d);
  if (matches !== undefined) {
    out.push('', 'catalogue', `  ${matches}`);
    for (const row of d.matches ?? []) out.push(matchText(row));
  }
  return `${out.join('\n')}\n`;
}

function itemMarkdown(item: Record<string, unknown>): string {
  const d = describeItem(item);
  const title = d.link ? `[${md(d.title)}](<${d.link.replace(/[<>]/g, '')}>)` : `**${md(d.title)}**`;
  const published = plain(item, 'published_at');
  return `- ${title}  \n  ${md(d.facts)}${published ? ` · published ${md(published)}` : ''}`;
}

export function digestMarkdown(d: Digest): string {
  const out = [
    `# ${md(digestSubject(d))}`,
    '',
    `Period: ${md(d.period.from)} to ${md(d.period.to)}`,
    '',
    '## Monitoring',
    '',
  ];
  for (const line of healthLines(d)) out.push(`- ${md(line)}`);
  out.push('', md(recallsLine(d)));
  for (const [title, list] of [
    ['New', d.recalls.new],
    ['Updated', d.recalls.updated],
  ] as const) {
    if (list.length === 0) continue;
    out.push('', `## ${title} (${list.length})`, '');
    for (const item of list) out.push(itemMarkdown(item));
  }
  if (d.counts.by_severity.length > 0) {
    out.push('', '## Counts', '', '| severity | recalls |', '| --- | ---: |');
    for (const c of d.counts.by_severity) out.push(`| ${md(c.value)} | ${c.count} |`);
    out.push('', '| source | recalls |', '| --- | ---: |');
    for (const c of d.counts.by_source) out.push(`| ${md(c.value)} | ${c.count} |`);
  }
  const matches = matchesLine(d);
  if (matches !== undefined) {
    out.push('', '## Catalogue', '', md(matches));
    for (const row of d.matches ?? []) out.push(`- ${md(matchText(row).trim())}`);
  }
  return `${out.join('\n')}\n`;
}
