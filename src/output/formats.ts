// The output format names, kept apart from the renderers so config validation can list them cheaply.
export type Format = 'table' | 'jsonl' | 'json' | 'csv';

export const FORMATS: readonly Format[] = ['table', 'jsonl', 'json', 'csv'];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}
