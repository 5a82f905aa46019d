// Cell formatting for csv (and the text the table starts from): how a JSON value becomes one cell of text.
// Free of the width code, so a csv run never loads it; terminal cells are in terminal-cells.ts.

/**
 * Cells starting with `=`, `+`, `-`, `@`, tab or CR are taken for formulas by spreadsheets (CSV injection); the guard
 * prefixes them with `'`, which spreadsheets show as text and strip from the displayed value. It prefixes a cell that
 * starts with `'` too, so that every cell starting with `'` is a guarded one: taking one leading `'` off such a cell
 * gives the value back (`=1+1` is written `'=1+1`, and `'=1+1` is written `''=1+1`).
 */
const GUARDED_START = /^['=+\-@\t\r]/;

export function guardFormula(text: string): string {
  return GUARDED_START.test(text) ? `'${text}` : text;
}

/**
 * The value behind a cell guardFormula may have prefixed (a header or an id read back from a file): one leading `'`
 * off, when what follows it is a start the guard prefixes. A file an older version wrote, which left a value's own
 * leading `'` alone, keeps such a value (`'x`) as it is.
 */
export function unguardFormula(text: string): string {
  return text.startsWith("'") && GUARDED_START.test(text.slice(1)) ? text.slice(1) : text;
}

export function primitiveText(value: unknown): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/**
 * One CSV cell. Strings as they are; numbers and booleans as text; null/undefined empty; an array of
 * strings joined with `; `; any other array, and objects, as compact JSON. With `formulaGuard`, string
 * cells and joined arrays get the `'` prefix; numbers (a real -5) and JSON cells never need it.
 */
export function csvCell(value: unknown, formulaGuard: boolean): string {
  if (typeof value === 'string') return formulaGuard ? guardFormula(value) : value;
  const text = primitiveText(value);
  if (text !== undefined) return text;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    const joined = value.join('; ');
    return formulaGuard ? guardFormula(joined) : joined;
  }
  return JSON.stringify(value) ?? '';
}
