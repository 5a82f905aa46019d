// Deterministic pieces the generated catalogues and recalls share: a seeded random source, GTIN-13s, invented words.
import { createWriteStream } from 'node:fs';

/** A deterministic generator, so every run matches the same rows. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The twelve digits `body` with their GS1 check digit. */
export function gtin13(body) {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

const SYLLABLES = 'ka lo mi ne ru sa to vi ze bo da fe gu hi jo'.split(' ');
/** An invented word of `n` syllables. */
export const word = (rand, n) =>
  Array.from({ length: n }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');

const cell = (v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes `header` and each row `rows` yields (arrays of strings, quoted where CSV needs it) to `file`, in chunks. */
export async function writeCsv(file, header, rows) {
  const out = createWriteStream(file);
  let chunk = [header.join(',')];
  for (const row of rows) {
    chunk.push(row.map(cell).join(','));
    if (chunk.length >= 10_000) {
      if (!out.write(`${chunk.join('\n')}\n`)) await new Promise((resolve) => out.once('drain', resolve));
      chunk = [];
    }
  }
  out.end(`${chunk.join('\n')}\n`);
  await new Promise((resolve, reject) => out.on('finish', resolve).on('error', reject));
}
