// An answer made to fit: long texts and long lists cut, each cut marked, so that no answer nears what a client reads at once.
import { UsageError } from '../runtime/cli-errors.js';

/**
 * The most an answer's structured part may weigh, in bytes of JSON: the SDK's client refuses a message over 10 MiB
 * (and drops the connection), and an assistant gains nothing from megabytes of one notice.
 */
const ANSWER_BUDGET_BYTES = 1_000_000;

/**
 * The cuts tried in turn, mildest first: the longest text kept, then the most items of a list kept. Lists are cut
 * before texts go down to 300 characters: a notice's thousands of image links would otherwise take its words with them.
 */
const STEPS: readonly { text: number; items: number }[] = [
  { text: 20_000, items: Number.POSITIVE_INFINITY },
  { text: 5_000, items: Number.POSITIVE_INFINITY },
  { text: 1_000, items: Number.POSITIVE_INFINITY },
  { text: 1_000, items: 1_000 },
  { text: 1_000, items: 200 },
  { text: 1_000, items: 50 },
  { text: 300, items: 200 },
  { text: 300, items: 50 },
  { text: 300, items: 10 },
];

/** The cut paths named at most: a thousand rows each cut would make the list itself long. */
const NAMED_CUTS = 20;

/** `text` cut to `max` characters (never inside a surrogate pair), marked where it was cut and by how much. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)} […cut: ${(text.length - end).toLocaleString('en-US')} more characters]`;
}

/** A string that is one link: never cut (a cut link leads nowhere, or somewhere else); kept whole or dropped whole. */
const LINK = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/** The longest link kept whatever the step: a longer one is dropped whole, marked. */
const LINK_KEPT = 8_192;

/** What stands for a link dropped whole. */
const droppedLink = (length: number) => `[…link dropped: ${length.toLocaleString('en-US')} characters]`;

function shrink(value: unknown, limits: { text: number; items: number }, at: string, cut: string[]): unknown {
  if (typeof value === 'string') {
    if (value.length <= limits.text) return value;
    if (LINK.test(value)) {
      if (value.length <= LINK_KEPT) return value;
      cut.push(`${at}: a link of ${value.length.toLocaleString('en-US')} characters, dropped whole`);
      return droppedLink(value.length);
    }
    cut.push(`${at}: ${value.length.toLocaleString('en-US')} characters, the first ${limits.text} kept`);
    return cutText(value, limits.text);
  }
  if (Array.isArray(value)) {
    const kept = value.length > limits.items ? value.slice(0, limits.items) : value;
    if (kept !== value) cut.push(`${at}: ${value.length} items, the first ${limits.items} kept`);
    return kept.map((v, i) => shrink(v, limits, `${at}[${i}]`, cut));
  }
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v, limits, `${at}.${k}`, cut)]));
  return value;
}

const weight = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * `value` within `budget` bytes of JSON: as it is when it fits, else with its long texts cut (marked in the text), then
 * its long lists. A link is never cut: one longer than LINK_KEPT is dropped whole, marked. `cut` names what was cut
 * (a path like `recall.product_description`). A value that no cut brings within the budget is refused.
 */
export function fitted<T extends Record<string, unknown>>(
  value: T,
  budget = ANSWER_BUDGET_BYTES,
): { value: T; cut: string[] } {
  if (weight(value) <= budget) return { value, cut: [] };
  for (const limits of STEPS) {
    const cut: string[] = [];
    const small = shrink(value, limits, '', cut) as T;
    if (weight(small) > budget) continue;
    const named = cut.slice(0, NAMED_CUTS).map((p) => p.replace(/^\./, ''));
    if (cut.length > NAMED_CUTS) named.push(`… and ${cut.length - NAMED_CUTS} more cut`);
    return { value: small, cut: named };
  }
  throw new UsageError(
    `the answer would be over ${Math.round(budget / 1e6)} MB even cut short: too large to send`,
    'ask for less: a smaller limit, or a narrower question',
  );
}

/** The text answer's line saying what was cut, if anything was: every tool that fits its answer says it so. */
export function cutLines(cut: readonly string[]): string[] {
  return cut.length > 0 ? [`Cut to keep the answer small: ${cut.join('; ')}.`] : [];
}
