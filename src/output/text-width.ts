// Terminal display width (string-width's), and truncation and wrapping to it, in time linear in the text.
//
// string-width (8.x: grapheme clusters, East Asian Width from get-east-asian-width, RGI emoji) decides every
// width, and the table hands the same function to cli-table3 (cli-table.ts), so what we cut and what it pads
// agree. Text reaching here is already cleaned (terminal-cells.ts): no control characters.
import stringWidth from 'string-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Built on first use: constructing it loads ICU's segmentation data, which a jsonl run never needs. */
let segmenter: Intl.Segmenter | undefined;

/**
 * Intl.Segmenter walks a long string in superlinear time (Node 20: 40,000 characters take half a second,
 * 100,000 over a minute), so text is segmented in pieces of about this many code units.
 */
const PIECE = 512;

/**
 * Text whose every code unit is a grapheme of its own: printable ASCII, Latin-1 and Latin Extended letters,
 * CJK ideographs (none of them combines with a neighbour; a combining mark after one is checked for).
 */
const SIMPLE = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u02ff\u4e00-\u9fff]*$/;

/**
 * `text` as consecutive pieces of about PIECE code units, each cut between graphemes. A piece's last
 * grapheme may be cut by the window, so it starts the next window instead: a grapheme's end is decided by
 * what follows it, its start only by what precedes it, which the window sees.
 */
function* pieces(text: string): Generator<{ piece: string; simple: boolean }> {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  let start = 0;
  while (text.length - start > PIECE) {
    // With the character after it: a mark there would join the window's last letter.
    if (SIMPLE.test(text.slice(start, start + PIECE + 1))) {
      yield { piece: text.slice(start, start + PIECE), simple: true };
      start += PIECE;
      continue;
    }
    const window = text.slice(start, start + PIECE);
    let last = 0;
    for (const s of segmenter.segment(window)) last = s.index;
    // One grapheme longer than the window (a letter under hundreds of marks): cut it there.
    const end = last === 0 ? PIECE : last;
    yield { piece: window.slice(0, end), simple: false };
    start += end;
  }
  const rest = text.slice(start);
  if (rest !== '') yield { piece: rest, simple: SIMPLE.test(rest) };
}

export function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { piece, simple } of pieces(text)) {
    if (simple) yield* piece;
    else for (const s of segmenter.segment(piece)) yield s.segment;
  }
}

/** string-width per grapheme is slow (it segments again): graphemes seen are remembered, up to a bound. */
const widths = new Map<string, number>();

/** One grapheme's columns. */
function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c <= 0x7e) return 1;
  }
  let width = widths.get(g);
  if (width === undefined) {
    if (widths.size >= 4096) widths.clear();
    width = stringWidth(g);
    widths.set(g, width);
  }
  return width;
}

/** Columns `text` takes on a terminal (string-width's measure; SGR colour codes take none). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  if (text.length <= PIECE) return stringWidth(text);
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/** `text` followed by spaces up to `width` display columns (nothing added when it is already as wide). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** The longest start of `text` within `width` columns, whole graphemes only, and its width. */
function fitStart(text: string, width: number): { kept: string; used: number; whole: boolean } {
  let used = 0;
  let end = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (used + w > width) return { kept: text.slice(0, end), used, whole: false };
    used += w;
    end += g.length;
  }
  return { kept: text, used, whole: true };
}

/** Cuts `text` to at most `width` columns, ending with `…` when anything was cut. Never splits a grapheme. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (PRINTABLE_ASCII.test(text)) return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  const all = fitStart(text, width);
  return all.whole ? text : `${fitStart(all.kept, width - 1).kept}…`;
}

/**
 * The lines single-line `text` wraps to at spaces, each at most `width` columns (a word wider than a line
 * is cut into pieces, between graphemes), produced one by one: a caller that wants a few lines of a huge
 * text stops early. Each word is measured once, so the whole is linear in the text.
 */
export function* wrappedLines(text: string, width: number): Generator<string> {
  const w = Math.max(1, width);
  let line = '';
  let used = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf(' ', start);
    if (end === -1) end = text.length;
    const word = text.slice(start, end);
    start = end + 1;
    if (word === '') continue;
    const ww = displayWidth(word);
    if (line !== '' && used + 1 + ww <= w) {
      line += ` ${word}`;
      used += 1 + ww;
      continue;
    }
    if (line !== '') yield line;
    if (ww <= w) {
      line = word;
      used = ww;
      continue;
    }
    // A word wider than a line: pieces of at most `w` columns, the last one open for the next word.
    line = '';
    used = 0;
    for (const g of graphemes(word)) {
      const gw = graphemeWidth(g);
      if (used + gw > w && line !== '') {
        yield line;
        line = '';
        used = 0;
      }
      line += g;
      used += gw;
    }
  }
  if (line !== '') yield line;
}

/** At most `maxLines` lines of wrappedLines; the last kept line ends with `…` when anything was left out. */
export function wrapToWidth(text: string, width: number, maxLines: number): string[] {
  const w = Math.max(1, width);
  const limit = Math.max(1, maxLines);
  const lines: string[] = [];
  for (const line of wrappedLines(text, w)) {
    if (lines.length === limit) {
      const last = lines[limit - 1]!;
      lines[limit - 1] = displayWidth(last) < w ? `${last}…` : truncateToWidth(`${last}…`, w);
      break;
    }
    lines.push(line);
  }
  return lines;
}

/** One line of text as every line of at most `width` columns it wraps to; an empty text is one empty line. */
export function wrapLine(text: string, width: number): string[] {
  const lines = [...wrappedLines(text, width)];
  return lines.length > 0 ? lines : [''];
}
