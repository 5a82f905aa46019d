// The digest for chat: a Slack/Mattermost text and a Teams card, each within its service's budget; your products first, then recalls, then where the full digest is.
import { describeItem } from '../recall-text.js';
import { groupDigits } from '../numbers.js';
import { shorten } from '../shorten.js';
import { escapeSlack as esc, SLACK_MAX_CHARS } from '../slack-text.js';
import { itemElements, plainBlock, TEAMS_MAX_BYTES, teamsEnvelope } from '../teams-card.js';
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
import { levelTag, productFacts, productName, type ProductRow, productsMore, productTitle } from './product-text.js';

/** Gap lines a chat message lists before counting the rest (348 gaps once made a 56 KB card). */
const CHAT_GAPS = 3;
/** Longest line of our own text, title and facts, in code points: one runaway field cannot crowd out the rest. */
const MAX_LINE = 500;
const MAX_TITLE = 300;
const MAX_FACTS = 300;

/** Where the full digest is: the e-mail sent with this post, else the command that prints it. */
function fullDigestLine(d: Digest, emailedTo: readonly string[] | undefined): string {
  return emailedTo && emailedTo.length > 0
    ? `The full digest, every recall listed: e-mailed to ${emailedTo.join(', ')}.`
    : `The full digest, every recall listed: recall-feed digest --since ${d.period.from} --until ${d.period.to}`;
}

function summaryLines(d: Digest): string[] {
  return [...healthLines(d, { gapsShown: CHAT_GAPS }), recallsLine(d), matchesLine(d)]
    .filter((l): l is string => l !== undefined)
    .map((l) => shorten(l, MAX_LINE));
}

/** Items in order while `take` accepts them (it adds each it accepts, keeping room for the note of the rest). */
function pack<T>(items: readonly T[], take: (item: T, note: string) => boolean, more: (n: number) => string): T[] {
  const shown: T[] = [];
  for (const [i, item] of items.entries()) {
    const rest = items.length - i - 1;
    if (!take(item, rest > 0 ? more(rest) : '')) break;
    shown.push(item);
  }
  return shown;
}

/** Slack (and Mattermost): one text under SLACK_MAX_CHARS, cut by whole lines; every field cut by code points. */
export function slackDigest(d: Digest, emailedTo?: readonly string[]): { text: string } {
  const tail = `\n${esc(fullDigestLine(d, emailedTo))}`;
  const summary = summaryLines(d)
    .map((l) => `\n${esc(l)}`)
    .join('');
  let text = `*${esc(digestSubject(d))}*`;
  /** Lines in order while the text with them (and the note of the rest) keeps within `limit`; then that note. */
  const section = (lines: readonly string[], limit: number, more: (n: number) => string) => {
    const take = (line: string, note: string) => {
      if (text.length + line.length + note.length > limit) return false;
      text += line;
      return true;
    };
    const shown = pack(lines, take, more);
    if (shown.length < lines.length) text += more(lines.length - shown.length);
  };
  const due = d.deadlines.cases;
  if (due.length > 0) {
    // Deadlines first, in at most half the message: the summary and your products keep their room.
    text += `\n*Deadlines*\n${esc(deadlinesLine(d.deadlines))}`;
    const cap = Math.min(SLACK_MAX_CHARS / 2, SLACK_MAX_CHARS - summary.length - tail.length);
    const lines = due.map(
      (r) =>
        `\n• *${deadlineTag(r)}* ${esc(deadlineProduct(r))}: ${esc(deadlineTitle(r))} (${esc(deadlineFacts(r, d.deadlines.as_of))})`,
    );
    section(lines, cap, (n) => `\n${esc(deadlinesMore(due.slice(due.length - n)))}`);
  }
  text += summary;
  // What follows keeps room for the line saying where the full digest is.
  const limit = SLACK_MAX_CHARS - tail.length;
  const products = d.products ?? [];
  const recalls = [...d.recalls.new, ...d.recalls.updated];
  const recallsMore = (n: number) => `\n… and ${groupDigits(n)} more`;
  if (products.length > 0) {
    text += '\n*Your products*';
    const lines = products.map((p) => {
      const link = p.source_url ? ` <${p.source_url.replace(/[<>|\s]/g, '')}>` : '';
      return `\n• *${esc(levelTag(p))}* ${esc(shorten(productName(p), MAX_TITLE))}: ${esc(productTitle(p))} (${esc(shorten(productFacts(p), MAX_FACTS))})${link}`;
    });
    // Room is left for the recalls' note: when not one recall fits, that note is still added.
    const reserve = recalls.length > 0 ? recallsMore(recalls.length).length : 0;
    section(lines, limit - reserve, (n) => `\n${esc(productsMore(products.slice(products.length - n)))}`);
  }
  const items = recalls.map((item) => {
    const x = describeItem(item);
    const link = x.link && x.link.length < 1000 ? ` <${x.link.replace(/[<>|\s]/g, '')}>` : '';
    return `\n• ${esc(shorten(x.title, MAX_TITLE))} (${esc(shorten(x.facts, MAX_FACTS))})${link}`;
  });
  section(items, limit, recallsMore);
  return { text: text + tail };
}

type CardElement = Record<string, unknown>;

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function deadlineElements(r: DeadlineRow, asOf: string): CardElement[] {
  return [
    {
      ...plainBlock(`${deadlineTag(r)}: ${deadlineProduct(r)}: ${deadlineTitle(r)}`, {
        weight: 'Bolder',
        ...(r.state === 'overdue' ? { color: 'Attention' } : {}),
      }),
      spacing: 'Medium',
    },
    { ...plainBlock(deadlineFacts(r, asOf), { isSubtle: true }), spacing: 'None' },
  ];
}

function productElements(p: ProductRow): CardElement[] {
  return [
    {
      ...plainBlock(`${levelTag(p)}: ${shorten(productName(p), MAX_TITLE)}: ${productTitle(p)}`, {
        weight: 'Bolder',
      }),
      spacing: 'Medium',
    },
    { ...plainBlock(shorten(productFacts(p), MAX_FACTS), { isSubtle: true }), spacing: 'None' },
    ...(p.source_url
      ? [{ type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open the notice', url: p.source_url }] }]
      : []),
  ];
}

/** Teams: an Adaptive Card under TEAMS_MAX_BYTES (measured as sent, UTF-8); sizes added up element by element. */
export function teamsDigest(d: Digest, emailedTo?: readonly string[]): Record<string, unknown> {
  const body: CardElement[] = [plainBlock(shorten(digestSubject(d), MAX_TITLE), { weight: 'Bolder', size: 'Large' })];
  const summary = summaryLines(d).map((l) => plainBlock(l));
  const tail = plainBlock(fullDigestLine(d, emailedTo), { isSubtle: true });
  // The summary's size is counted from the start: it follows the deadlines.
  let size = bytes(teamsEnvelope([...body, ...summary])) + bytes(tail) + 1;
  const note = (text: string) => ({ type: 'TextBlock', text, wrap: true });
  let limit = TEAMS_MAX_BYTES;
  /** What elements add to the card, each measured once (a newline between them). */
  const sizeOf = (els: CardElement[]) => els.reduce((n, e) => n + bytes(e) + 1, 0);
  const add = (els: CardElement[], n = sizeOf(els)) => {
    body.push(...els);
    size += n;
  };
  const section = <T>(items: readonly T[], elements: (t: T) => CardElement[], more: (n: number) => string) => {
    const groups = items.map(elements);
    const shown = pack(
      groups,
      (els, more) => {
        const n = sizeOf(els);
        if (size + n + (more ? bytes(note(more)) + 1 : 0) > limit) return false;
        add(els, n);
        return true;
      },
      more,
    );
    if (shown.length < groups.length) add([note(more(groups.length - shown.length))]);
  };
  if (d.deadlines.cases.length > 0) {
    // Deadlines first, in at most half the card: the summary and your products keep their room.
    limit = Math.max(size, TEAMS_MAX_BYTES / 2);
    add([{ ...plainBlock('Deadlines', { weight: 'Bolder', size: 'Medium' }), spacing: 'Large' }]);
    add([plainBlock(deadlinesLine(d.deadlines))]);
    const due = d.deadlines.cases;
    section(
      due,
      (r) => deadlineElements(r, d.deadlines.as_of),
      (n) => deadlinesMore(due.slice(due.length - n)),
    );
    limit = TEAMS_MAX_BYTES;
  }
  for (const e of summary) body.push(e);
  const recalls = [...d.recalls.new, ...d.recalls.updated];
  const recallsMore = (n: number) => `… and ${groupDigits(n)} more`;
  if (d.products !== null && d.products.length > 0) {
    // Your products leave room for the recalls' note: when not one recall fits, that note is still added.
    limit = TEAMS_MAX_BYTES - (recalls.length > 0 ? bytes(note(recallsMore(recalls.length))) + 1 : 0);
    add([{ ...plainBlock('Your products', { weight: 'Bolder', size: 'Medium' }), spacing: 'Large' }]);
    const products = d.products;
    section(products, productElements, (n) => productsMore(products.slice(products.length - n)));
    limit = TEAMS_MAX_BYTES;
  }
  section(recalls, (item) => itemElements(describeItem(item)), recallsMore);
  body.push(tail);
  return teamsEnvelope(body);
}
