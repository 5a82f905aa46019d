// Cell formatting for csv (and the text the table starts from): how a JSON value becomes one cell of text.
// Free of the width code, so a csv run never loads it; terminal cells are in terminal-cells.ts.

/**
 * Cells starting with one of these are taken for formulas by spreadsheets (CSV injection); the guard
 * prefixes them with `'`, which spreadsheets show as text and strip from the displayed value.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The field name behind a header cell that guardFormula may have prefixed (a header read back from a file). */
export function unguardFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
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
