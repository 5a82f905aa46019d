// Word wrapping to a terminal width, measured in display columns (CJK and emoji count two).
import { displayWidth, graphemes } from './text-width.js';

/** Breaks a word wider than `width` into pieces that fit, never inside a grapheme. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const g of graphemes(word)) {
    if (piece !== '' && displayWidth(piece + g) > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += g;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/** One line of text (no line breaks) as lines of at most `width` columns; words are kept whole where they fit. */
export function wrapLine(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((x) => x !== '')) {
    for (const piece of displayWidth(word) > w ? breakWord(word, w) : [word]) {
      const candidate = line === '' ? piece : `${line} ${piece}`;
      if (displayWidth(candidate) <= w) {
        line = candidate;
      } else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
