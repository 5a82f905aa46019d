// The terminal views of the archive commands: wrapping, bar charts, a record for a person, version changes.
import { describe, expect, it } from 'vitest';
import { bar, barChart } from '../../src/output/bar-chart.js';
import { fieldChanges, historyView, recordView } from '../../src/output/record-view.js';
import { displayWidth } from '../../src/output/text-width.js';
import { wrapLine } from '../../src/output/text-width.js';

const widths = (text: string) => text.split('\n').filter(Boolean).map(displayWidth);

describe('wrapLine', () => {
  it('keeps words whole where they fit and breaks only words wider than the line', () => {
    expect(wrapLine('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps']);
    expect(wrapLine('abcdefghijkl xy', 5)).toEqual(['abcde', 'fghij', 'kl xy']);
    expect(wrapLine('', 5)).toEqual(['']);
  });

  it('measures wide characters as two columns and never splits an emoji', () => {
    const lines = wrapLine('儿童电动滑板车 🔋🔋🔋', 6);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(6);
    expect(lines.join('')).toBe('儿童电动滑板车🔋🔋🔋');
  });
});

describe('bar charts', () => {
  it('draws bars in eighths of a column, the largest filling the width', () => {
    expect(bar(10, 10, 4)).toBe('████');
    expect(bar(5, 10, 3)).toBe('█▌');
    expect(bar(1, 1000, 10)).toBe('▏');
    expect(bar(0, 10, 10)).toBe('');
  });

  it('fits every width from 20 to 200, labels cut with … and cleaned of control codes', () => {
    const rows = [
      { label: 'a very long brand name that never ends', count: 12_345 },
      { label: 'Red\u001b[31m', count: 7 },
      { label: '小飞侠', count: 1 },
    ];
    for (const width of [20, 40, 80, 200]) {
      const text = barChart({ title: 'brand', rows, note: '… 3 more values' }, width);
      expect(Math.max(...widths(text))).toBeLessThanOrEqual(width);
      expect(text).not.toContain('\u001b');
      expect(text.split('\n')[0]).toBe('brand');
    }
    const wide = barChart({ title: 'brand', rows }, 100).split('\n');
    expect(wide[1]).toMatch(/^ {2}a very long brand name that never ends 12,345 █{52}$/);
    expect(wide[2]).toBe(`  Red[31m${' '.repeat(31)}      7 ▏`);
    expect(wide[3]).toBe(`  小飞侠${' '.repeat(32)}      1 ▏`);
    // Labels take at most half the room: cut with … when longer.
    expect(barChart({ title: 'brand', rows }, 60).split('\n')[1]).toMatch(/^ {2}a very long brand name t… 12,345 █+$/);
  });
});

describe('recordView', () => {
  const record = {
    id: 7,
    data_source: 'uk_opss',
    risk_severity: 'high',
    alert_title: 'Heater \u001b[2Jrecalled',
    risk_types: ['fire', 'burn'],
    involved_parties: [{ name: 'Acme Ltd', role: 'importer', country: 'GB' }],
    images: [],
    packaging_description: null,
    source_url: 'https://example.invalid/a/very/long/path/that/must/stay/whole/for/a/terminal/to/open/it',
    alert_summary: 'One.\nTwo.',
  };

  it('shows every field, lists as bullets, parties by name and role, nothing as —', () => {
    const text = recordView(record, 100);
    expect(text.split('\n').slice(0, 2)).toEqual(['recall 7 · uk_opss · high', 'Heater [2Jrecalled']);
    expect(text).toMatch(/^risk types +• fire\n +• burn$/m);
    expect(text).toMatch(/^involved parties +• Acme Ltd — importer, GB$/m);
    expect(text).toMatch(/^images +—$/m);
    expect(text).toMatch(/^packaging description +—$/m);
    expect(text).toMatch(/^alert summary +One\.\n +Two\.$/m);
    expect(text).not.toContain('\u001b');
  });

  it('wraps to the width, stacks labels on narrow terminals, and keeps links whole', () => {
    for (const width of [30, 59, 60, 120]) {
      const text = recordView(record, width);
      for (const line of text.split('\n'))
        if (!line.includes('https://')) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(text).toContain(record.source_url);
    }
    expect(recordView(record, 40)).toMatch(/^risk types\n {2}• fire$/m);
  });
});

describe('versions', () => {
  it('lists the fields that changed, and the history view shows each with before and after', () => {
    const v1 = { id: 1, alert_status: 'active', risk_severity: 'low', updated_at: '2026-01-01T00:00:00', gone: 'x' };
    const v2 = {
      id: 1,
      alert_status: 'updated',
      risk_severity: 'low',
      updated_at: '2026-01-02T00:00:00',
      added: ['a'],
    };
    expect(fieldChanges(v1, v2).map((c) => c.field)).toEqual(['alert_status', 'updated_at', 'added', 'gone']);
    const text = historyView(
      [
        { version: 1, record: v1, storedAt: '2026-01-01T01:00:00.000Z', current: false },
        { version: 2, record: v2, storedAt: '2026-01-02T01:00:00.000Z', current: true },
      ],
      100,
    );
    expect(text).toBe(
      [
        'version 1 · stored 2026-01-01T01:00:00.000Z · updated_at (UTC) 2026-01-01T00:00:00',
        'version 2 (current) · stored 2026-01-02T01:00:00.000Z · updated_at (UTC) 2026-01-02T00:00:00',
        '  alert status: active → updated',
        '  updated at (UTC): 2026-01-01T00:00:00 → 2026-01-02T00:00:00',
        '  added: (absent) → a',
        '  gone: x → (absent)',
        '',
      ].join('\n'),
    );
  });
});
