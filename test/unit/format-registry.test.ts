// The one format registry: extensions and defaults unambiguous, aliases resolved within a command's formats, and a
// document written in the first form the chosen format takes.
import { describe, expect, it } from 'vitest';
import { DIGEST_FORMATS } from '../../src/output/format-kinds.js';
import { allFormats, defaultFormat, formatNamed, resolveFormat } from '../../src/output/format-registry.js';
import { documentForm } from '../../src/output/output-document.js';

describe('the registry', () => {
  it('gives each -o extension to one format, and one default each on a terminal and in a pipe', () => {
    const owners = new Map<string, string[]>();
    for (const f of allFormats()) for (const e of f.extensions) owners.set(e, [...(owners.get(e) ?? []), f.name]);
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
    for (const on of ['terminal', 'pipe'] as const) {
      const defaults = allFormats().filter((f) => f.defaultOn === on);
      expect(defaults.map((f) => f.name)).toEqual([defaultFormat(on).name]);
      expect(defaults[0]?.kind).toBe('records');
    }
  });

  it('resolves an alias only where no format has that name', () => {
    const textAliases = formatNamed('text').aliases;
    const shadowed = textAliases.filter((a) => allFormats().some((f) => f.name === a));
    expect(shadowed.length).toBeGreaterThan(0);
    for (const name of shadowed) {
      expect(resolveFormat([name, 'text'], name)?.name).toBe(name);
      expect(resolveFormat(DIGEST_FORMATS, ` ${name.toUpperCase()} `)?.name).toBe('text');
    }
    expect(resolveFormat(['json'], 'md')).toBeUndefined();
  });
});

describe('a document', () => {
  const value = { a: 1, b: '\u009b' };
  it('is written in the first of the format’s parts it has', async () => {
    const json = formatNamed('json');
    const indented = `${JSON.stringify(value, null, 2).replace('\u009b', '\\u009b')}\n`;
    const line = `${JSON.stringify(value).replace('\u009b', '\\u009b')}\n`;
    expect(await documentForm(json, { whole: value, one: 'x', items: [1] })).toEqual({ text: indented });
    expect(await documentForm(json, { one: value, items: [1] })).toEqual({ text: line });
    expect(await documentForm(formatNamed('jsonl'), { whole: 1, items: [value, value] })).toEqual({
      text: line + line,
    });
    const rows = { spec: { tableColumns: [] }, rows: [value] };
    expect(await documentForm(formatNamed('csv'), { whole: 1, rows })).toEqual({ rows });
  });

  it('without a form the format writes is a job’s bug, said as one', async () => {
    await expect(documentForm(formatNamed('csv'), { whole: 1 })).rejects.toThrow(/no form the csv format writes/);
  });
});
