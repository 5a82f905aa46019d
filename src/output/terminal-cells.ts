// Text for a terminal: cleaned of controls and invisible characters, one line, bounded in length (table cells, views, charts).
import { primitiveText } from './cells.js';
import { LINE_BREAKS, UNSEEN as INVISIBLE } from './control-escapes.js';
import { graphemes } from './text-width.js';

/** Built on first use: compiling the emoji property costs about 10 ms, which a jsonl run never needs. */
let rgiEmoji: RegExp | undefined;

/** Whether a grapheme is one emoji (whose ZWJ and VS16 must stay); the `v` flag is built at runtime for ES2022. */
function isEmojiGrapheme(g: string): boolean {
  if (g.length === 1 && g.codePointAt(0)! <= 0xff) return false;
  // biome-ignore lint/complexity/useRegexLiterals: built on first use on purpose
  rgiEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  return rgiEmoji.test(g);
}

/** How much of a field a view shows: a huge field would take long to clean and wrap, and fill the screen. */
export const VIEW_LIMIT = 10_000;

/**
 * The first `limit` characters (code points) of `text`, never splitting a surrogate pair, and how many
 * characters were left out.
 */
export function limitText(text: string, limit = VIEW_LIMIT): { text: string; more: number } {
  if (text.length <= limit) return { text, more: 0 };
  let end = 0;
  for (let n = 0; n < limit && end < text.length; n++) end += isHigh(text.charCodeAt(end)) ? 2 : 1;
  let more = 0;
  for (let i = end; i < text.length; i++) if (!isLow(text.charCodeAt(i)) || !isHigh(text.charCodeAt(i - 1))) more++;
  return { text: text.slice(0, end), more };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

const NEEDS_CLEANING = /[^\x20-\x7e]/;

/** Makes text safe and single-line for a terminal cell; emoji sequences (which use ZWJ and VS16) are kept. */
export function cleanForTerminal(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  const oneLine = text.replace(LINE_BREAKS, ' ');
  let out = '';
  for (const g of graphemes(oneLine)) out += isEmojiGrapheme(g) ? g : g.replace(INVISIBLE, '');
  return out;
}

/**
 * Text for a message line (errors, warnings, hints) that may hold what a server chose: one line, no
 * control codes, at most VIEW_LIMIT characters.
 */
export function terminalText(text: string): string {
  const { text: head, more } = limitText(text);
  return cleanForTerminal(head) + (more > 0 ? '…' : '');
}

function tableText(value: unknown): string {
  const text = primitiveText(value);
  if (text !== undefined) return text;
  if (Array.isArray(value)) {
    return value.map((v) => primitiveText(v) ?? JSON.stringify(v) ?? '').join(', ');
  }
  return JSON.stringify(value) ?? '';
}

/**
 * One table cell, before truncation: text as in csv but arrays joined with `, ` (objects inside as
 * compact JSON), newlines and tabs shown as a space, control and invisible characters removed. Only the
 * first VIEW_LIMIT characters are kept (then `…`): no cell or view line shows more.
 */
export function tableCell(value: unknown): string {
  return terminalText(tableText(value));
}
