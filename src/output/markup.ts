// Text from records, catalogues and notes made safe inside HTML and Markdown documents: no control codes, no markup of its own.
import { BIDI, INVISIBLE } from './control-escapes.js';

/**
 * C0 controls but tab and line breaks, DEL and C1: no place in a document (some are not even valid HTML); the bidi
 * controls, which reorder what a reader sees, and the characters that show nothing.
 */
const DOCUMENT_CONTROLS = new RegExp(`[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f${BIDI}${INVISIBLE}]`, 'g');

/** `value` as HTML text, also safe inside a quoted attribute; a carriage return not ending a line is a space. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(DOCUMENT_CONTROLS, '')
    .replace(/\r(?!\n)/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * `value` as one line of Markdown text: line breaks become spaces, every character Markdown acts on escaped (a table
 * cell's pipe too, and `&`, so that no entity such as `&rlm;` is formed). GFM's autolinks are broken too: `\:` in
 * `https://` and `\.` in `www.`, which a renderer shows as `:` and `.`; an e-mail address, which GFM links in the text
 * once escapes are undone, gets a zero-width space after its `@`.
 */
export function escapeMarkdown(value: unknown): string {
  return String(value ?? '')
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(DOCUMENT_CONTROLS, '')
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
    .replace(/([\\`*_{}[\]()<>#+!|~&])/g, '\\$1')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.');
}
