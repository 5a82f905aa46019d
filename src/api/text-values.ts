// Every string inside a JSON-like value (a record, a tool's answer), mapped: the one walker for masking secrets,
// storing text a column can hold, and cleaning what the MCP server answers.

/**
 * `value` with each string inside it (object keys too, arrays walked) through `fix`, which is told the property a
 * string value stands under (an array's items, the array's); anything else as it is.
 */
export function mapTexts<T>(value: T, fix: (text: string, key?: string) => string, key?: string): T {
  if (typeof value === 'string') return fix(value, key) as T;
  if (Array.isArray(value)) return value.map((v) => mapTexts(v, fix, key)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fix(k), mapTexts(v, fix, k)])) as T;
  return value;
}
