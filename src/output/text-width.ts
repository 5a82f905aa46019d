// Terminal display width and truncation for table cells: CJK and emoji take two columns.
//
// The rules follow string-width 4 (what cli-table3 0.6.5 pads with), so our truncation and its padding
// agree: RGI emoji count 2, East Asian wide/fullwidth code points 2, C0/C1 controls and U+0300-U+036F 0,
// everything else 1. Where a terminal draws a character narrower than that (other combining marks),
// the line comes out shorter, never wider.

// The `v` flag is built at runtime: the compiler target (ES2022) does not know it, Node 20 does.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SGR = /\u001b\[[0-9;]*m/g;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

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
  return g.length > 1 || g.codePointAt(0)! > 0xff ? RGI_EMOJI.test(g) : false;
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
