// Teams Workflows messages carrying an Adaptive Card, kept under the size Teams accepts: one recall (--webhook-format teams) and the parts of the digest's card.
import { describeItem } from './recall-text.js';
import { shorten } from './shorten.js';

/** Teams refuses a message above about 28 KB; we stay a margin below it, measured in UTF-8 bytes. */
export const TEAMS_MAX_BYTES = 27 * 1024;

/** Longest title and fact shown: a hostile or runaway field cannot crowd out the rest. */
export const MAX_TITLE = 300;
export const MAX_FACT = 200;

/**
 * Text we did not write goes in TextRuns of a RichTextBlock: the Adaptive Card schema renders no markdown
 * there, so a hostile title stays text (no link, no emphasis) without escapes that Teams might show.
 */
export function plainBlock(text: string, style: Record<string, unknown> = {}, label?: string): Record<string, unknown> {
  const inlines: Record<string, unknown>[] = [];
  if (label !== undefined) inlines.push({ type: 'TextRun', text: `${label}: `, weight: 'Bolder' });
  inlines.push({ type: 'TextRun', text, ...style });
  return { type: 'RichTextBlock', inlines };
}

export interface CardItem {
  title: string;
  facts: string;
  link?: string;
}

type CardElement = Record<string, unknown>;

/** One item of a summary card: its title, its facts, a button to its link. */
export function itemElements(item: CardItem): CardElement[] {
  return [
    { ...plainBlock(shorten(item.title, MAX_TITLE), { weight: 'Bolder' }), spacing: 'Medium' },
    { ...plainBlock(shorten(item.facts, MAX_FACT * 2), { isSubtle: true }), spacing: 'None' },
    ...(item.link
      ? [
          {
            type: 'ActionSet',
            actions: [{ type: 'Action.OpenUrl', title: 'Open the notice', url: item.link }],
          },
        ]
      : []),
  ];
}

/** The envelope a Teams Workflows incoming webhook takes: one message, one Adaptive Card attachment. */
export function teamsEnvelope(body: CardElement[], actions: CardElement[] = []): Record<string, unknown> {
  const card: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
  };
  if (actions.length > 0) card.actions = actions;
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}

/** One recall: its title, a line per fact (severity, brand, source) and a button to the notice. */
export function teamsRecallMessage(record: Record<string, unknown>): Record<string, unknown> {
  const d = describeItem(record);
  const facts = d.list.map((f) =>
    f.label === undefined
      ? plainBlock(shorten(f.value, MAX_FACT))
      : plainBlock(shorten(f.value, MAX_FACT), {}, f.label),
  );
  const body: CardElement[] = [plainBlock(shorten(d.title, MAX_TITLE), { weight: 'Bolder', size: 'Medium' }), ...facts];
  return teamsEnvelope(body, d.link ? [{ type: 'Action.OpenUrl', title: 'Open the notice', url: d.link }] : []);
}
