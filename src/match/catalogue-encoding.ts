// A catalogue file's bytes as text: UTF-8, UTF-16 by its BOM or NUL bytes, else Windows-1252; zip and UTF-32 refused.
import { CatalogueReadError } from './catalogue-errors.js';

/**
 * The file's text: UTF-8, or UTF-16 when a BOM (or a NUL in the first pair of bytes) says so; a file that
 * is not valid UTF-8 is read as Windows-1252 (a Latin-1 export from Excel), which the caller reports.
 */
export function decodeCatalogue(file: string, bytes: Buffer): { text: string; readAs?: 'windows-1252' } {
  const label = encodingOf(file, bytes);
  // TextDecoder drops the BOM itself.
  if (label !== 'utf-8') return { text: new TextDecoder(label).decode(bytes) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: decodeWindows1252(withoutUtf8Bom(bytes)), readAs: 'windows-1252' };
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes without a leading UTF-8 byte-order mark (a file that says UTF-8 and then holds a Windows-1252 byte). */
export function withoutUtf8Bom(bytes: Buffer): Buffer {
  return bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
}

/**
 * A catalogue's encoding from its first bytes: UTF-16 by its BOM or a NUL in the first pair, else UTF-8 (or, when that
 * fails, Windows-1252). A zip (xlsx) and UTF-32 are refused: read as UTF-16, UTF-32 gave rows of NULs and no match.
 */
export function encodingOf(file: string, first: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (first.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')))
    throw new CatalogueReadError(
      `${file} is a zip or spreadsheet file (xlsx?), not CSV or JSON lines`,
      'save it from the spreadsheet as "CSV UTF-8"',
    );
  const [b0, b1, b2, b3] = [first[0], first[1], first[2], first[3]];
  // UTF-32: a BE file starts with two NULs; an LE one has two after its first character or its BOM.
  if ((b0 === 0 && b1 === 0) || (b2 === 0 && b3 === 0 && (b1 === 0 || (b0 === 0xff && b1 === 0xfe))))
    throw new CatalogueReadError(`${file} is in UTF-32, which match does not read`, 'save it as UTF-8 (or UTF-16)');
  if ((b0 === 0xff && b1 === 0xfe) || (b0 !== 0 && b1 === 0)) return 'utf-16le';
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0 && b1 !== 0)) return 'utf-16be';
  return 'utf-8';
}

/** Windows-1252's 0x80-0x9F (Node 20's TextDecoder reads them as Latin-1's C1 controls); the five unused stay as they are. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}
