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
 * cell's pipe too, and `&`, so that no entity such as `&rlm;` is formed). GFM's web autolinks are broken too: `\:` in
 * `https://` and `\.` in `www.`, which a renderer shows as `:` and `.`. An e-mail address stays as written: GFM may
 * link it, to itself (a mailto: showing its own address deceives no one), and a reader can copy it as it reads.
 */
export function escapeMarkdown(value: unknown): string {
  return String(value ?? '')
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(DOCUMENT_CONTROLS, '')
    .replace(/([\\`*_{}[\]()<>#+!|~&])/g, '\\$1')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.');
}
