// Characters a terminal would act on, escaped where records are printed: always in JSON (DEL, C1, bidi), in csv on a terminal.
//
// JSON.stringify escapes U+0000-U+001F but leaves DEL and the C1 controls (U+0080-U+009F, among them
// U+009B, a one-byte CSI) raw, and the bidi controls, which reorder what follows them on screen. They can only occur
// inside JSON strings, so escaping them as \uXXXX gives the same value in bytes no terminal acts on; the archive's stored JSON text goes through the same
// function, so `query` and `feed` print identical bytes.

/** The bidi controls, which reorder what follows them on screen (`…/\u202Efdp.exe` shows as `…/exe.pdf`). */
export const BIDI = '\u200e\u200f\u202a-\u202e\u2066-\u2069';
const JSON_CONTROLS = new RegExp(`[\u007f-\u009f${BIDI}]`, 'g');
/**
 * C0 controls but tab and line ends (csv keeps those, quoted), DEL, C1 and the bidi controls; a carriage return not
 * ending a line ("fire risk\rSafe, no action needed" would print over the recall's own words).
 */
const TERMINAL_CONTROLS = new RegExp(`[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f${BIDI}]|\r(?!\n)`, 'g');

/**
 * Characters that show nothing and may hide what a reader sees ("evil\u200b.com"), and that no script's spelling
 * needs: zero-width space, word joiner, BOM. Documents (markup.ts, plain text) drop them.
 */
export const INVISIBLE = '\u200b\u2060\ufeff';
/**
 * ZWNJ and ZWJ: invisible too, but part of the text: Persian and Indic spelling, and emoji sequences (👩‍💻). Documents
 * keep them; the lines the CLI writes to a terminal (plainLine, stripControls) drop them with INVISIBLE, since there
 * they join nothing a reader needs and can hide a character as well.
 */
const JOINERS = '\u200c\u200d';

/** Line breaks (a message is one line) and the bidi controls that reorder what follows them. */
const BREAKS = /\r\n|[\r\n\t\v\f\u0085\u2028\u2029]/g;
const CONTROLS = new RegExp(`[\\p{Cc}${BIDI}${INVISIBLE}${JOINERS}]`, 'gu');
const LINE_LIMIT = 10_000;

/**
 * A message line (error, hint, warning, status) that may hold text a server chose, as plain text: one
 * line, no control codes (ESC, BEL, C1, bidi), at most LINE_LIMIT code units. No dependencies, so every
 * command can afford it; the table's cells get the fuller cleaning of cells.ts.
 */
export function plainLine(text: string): string {
  let line = text;
  if (line.length > LINE_LIMIT) {
    const cut = /[\ud800-\udbff]/.test(line[LINE_LIMIT - 1]!) ? LINE_LIMIT - 1 : LINE_LIMIT;
    line = `${line.slice(0, cut)}…`;
  }
  return line.replace(BREAKS, ' ').replace(CONTROLS, '');
}

const hex = (ch: string) => ch.charCodeAt(0).toString(16).padStart(2, '0');

/** Each UTF-16 unit of `ch` as `\uXXXX`, as JSON escapes it (a character beyond U+FFFF as its two halves). */
export function unicodeEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Line breaks a terminal line cannot hold. */
export const LINE_BREAKS = /\r\n|[\r\n\t\v\f\u0085\u2028\u2029]/g;
// Controls (ESC would let a record drive the terminal), format characters (bidi overrides, zero-width
// spaces) and variation selectors: invisible or harmful in a table, and they would skew widths.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the selectors are listed alone on purpose, to remove them
export const UNSEEN = /[\p{Cc}\p{Cf}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/**
 * Text with every character a terminal would not show as it is (controls, format characters, selectors, line breaks)
 * escaped as `\uXXXX`, emoji's joiners too: what a label shows so that no two texts look alike.
 */
export function escapeUnseen(text: string): string {
  return text.replace(LINE_BREAKS, unicodeEscape).replace(UNSEEN, unicodeEscape);
}

/** Whether escapeUnseen would change `text`. */
export function hasUnseen(text: string): boolean {
  return text.search(LINE_BREAKS) !== -1 || text.search(UNSEEN) !== -1;
}

/** JSON text with DEL, C1 and the bidi controls escaped as \uXXXX (the same JSON value). */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_CONTROLS, unicodeEscape);
}

/** A value as compact JSON, DEL, C1 and the bidi controls escaped. */
export function jsonText(value: unknown): string {
  return escapeJsonControls(JSON.stringify(value));
}

/** Text for a terminal: ESC, BEL, a lone CR and every other control it would act on shown as `\xNN` (bidi `\uXXXX`). */
export function escapeTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (ch) => (ch.charCodeAt(0) > 0xff ? unicodeEscape(ch) : `\\x${hex(ch)}`));
}

const STRIPPED = new RegExp(`[\u0000-\u0008\u000b-\u001f\u007f-\u009f${BIDI}${INVISIBLE}${JOINERS}]`, 'g');

/**
 * C0 and C1 control characters but tab and line feed, and the bidi controls: what a hostile value could use to
 * drive the terminal or reorder what follows it (as plainLine drops them from messages and cells.ts from cells).
 */
export function stripControls(text: string): string {
  return text.replace(STRIPPED, '');
}

/** Every line break, and tab: a document's one line of text has spaces there. */
const TEXT_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** The controls but those breaks (NEL, U+0085, among them), bidi, and INVISIBLE: taken out before the breaks become spaces. */
const TEXT_STRIPPED = new RegExp(`[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f${BIDI}${INVISIBLE}]`, 'g');

/**
 * A value as one line of document text (the digest's and the messages' text, before any escaping for Markdown or
 * HTML): each run of line breaks and tabs, a lone CR too, one space, so that no two words merge; the controls and
 * what hides text (INVISIBLE) gone; ZWNJ and ZWJ kept, as the words and emoji they shape need them.
 */
export function plainText(text: string): string {
  return text.replace(TEXT_STRIPPED, '').replace(TEXT_BREAKS, ' ');
}
