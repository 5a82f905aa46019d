// Terminal display width, truncation and wrapping for table cells: CJK and emoji take two columns.
//
// The table truncates and pads with these widths alone, so a row never drifts: RGI emoji (as Node's own
// Unicode data knows them, so newer emoji too) count 2, East Asian wide/fullwidth code points 2 (the
// ranges string-width 4 uses), C0/C1 controls and U+0300-U+036F 0, everything else 1. Where a terminal
// draws a character narrower than that (other combining marks), the line comes out shorter, never wider.

// The `v` flag is built at runtime: the compiler target (ES2022) does not know it, Node 20 does.
/** Built on first use: compiling the emoji property costs about 10 ms, which a jsonl run never needs. */
let rgiEmoji: RegExp | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SGR = /\u001b\[[0-9;]*m/g;
/** Built on first use too: constructing it loads ICU's segmentation data, which a jsonl run never needs. */
let segmenter: Intl.Segmenter | undefined;

/** East Asian Wide and Fullwidth ranges, as is-fullwidth-code-point 3 (string-width 4) lists them. */
function isWide(cp: number): boolean {
  return (
    cp >= 0x1100 &&
    (cp <= 0x115f ||
      cp === 0x2329 ||
      cp === 0x232a ||
      (cp >= 0x2e80 && cp <= 0x3247 && cp !== 0x303f) ||
      (cp >= 0x3250 && cp <= 0x4dbf) ||
      (cp >= 0x4e00 && cp <= 0xa4c6) ||
      (cp >= 0xa960 && cp <= 0xa97c) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe10 && cp <= 0xfe19) ||
      (cp >= 0xfe30 && cp <= 0xfe6b) ||
      (cp >= 0xff01 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) ||
      (cp >= 0x1b000 && cp <= 0x1b001) ||
      (cp >= 0x1f200 && cp <= 0x1f251) ||
      (cp >= 0x20000 && cp <= 0x3fffd))
  );
}

export function isEmojiGrapheme(g: string): boolean {
  if (g.length === 1 && g.codePointAt(0)! <= 0xff) return false;
  // A literal would be compiled when the module loads; the constructor waits for the first emoji-sized grapheme.
  // biome-ignore lint/complexity/useRegexLiterals: built on first use on purpose
  rgiEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  return rgiEmoji.test(g);
}

function graphemeWidth(g: string): number {
  if (isEmojiGrapheme(g)) return 2;
  let width = 0;
  for (const ch of g) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x300 && cp <= 0x36f)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

export function graphemes(text: string): Iterable<string> {
  return (function* () {
    segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
    for (const s of segmenter.segment(text)) yield s.segment;
  })();
}

/** Columns `text` takes on a terminal; SGR colour codes take none. */
export function displayWidth(text: string): number {
  const plain = text.includes('\u001b') ? text.replace(SGR, '') : text;
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  for (const g of graphemes(plain)) width += graphemeWidth(g);
  return width;
}

/** `text` followed by spaces up to `width` display columns (nothing added when it is already as wide). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Cuts `text` to at most `width` columns, ending with `…` when anything was cut. Never splits a grapheme. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const budget = width - 1;
  let used = 0;
  let kept = '';
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (used + w > budget) break;
    kept += g;
    used += w;
  }
  return `${kept}…`;
}

/** Cuts a word wider than `width` into pieces of at most `width` columns, never splitting a grapheme. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const g of graphemes(word)) {
    const w = graphemeWidth(g);
    if (used + w > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += g;
    used += w;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/**
 * Wraps single-line `text` at spaces into lines of at most `width` columns (words wider than a line are
 * cut into pieces), keeping at most `maxLines`; the last kept line ends with `…` when anything was left out.
 */
export function wrapToWidth(text: string, width: number, maxLines: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) <= w) {
      line += ` ${word}`;
      continue;
    }
    if (line !== '') lines.push(line);
    const pieces = breakWord(word, w);
    lines.push(...pieces.slice(0, -1));
    line = pieces[pieces.length - 1] ?? '';
  }
  if (line !== '') lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = kept[kept.length - 1]!;
  kept[kept.length - 1] = displayWidth(last) < w ? `${last}…` : truncateToWidth(`${last}…`, w);
  return kept;
}

/** One line of text as every line of at most `width` columns it wraps to; an empty text is one empty line. */
export function wrapLine(text: string, width: number): string[] {
  const lines = wrapToWidth(text, width, Number.POSITIVE_INFINITY);
  return lines.length > 0 ? lines : [''];
}
