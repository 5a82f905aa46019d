import { describe, expect, it } from 'vitest';
import { timestampMicros } from '../../src/api/timestamps.js';

/** What the parser stands for, by Date alone: the calendar checked by a Date's own roll-over, the instant by Date.parse. */
function byDate(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) return NaN;
  const [, y, mo, d, hh = '00', mm = '00', ss = '00', frac = '', zone = 'Z'] = m;
  const at = new Date(0);
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  if (at.getUTCFullYear() !== Number(y) || at.getUTCMonth() !== Number(mo) - 1 || at.getUTCDate() !== Number(d)) {
    return NaN;
  }
  const z = zone === 'Z' || zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${hh}:${mm}:${ss}${z}`);
  return Number.isNaN(ms) ? NaN : ms * 1000 + Number(frac.padEnd(6, '0').slice(0, 6));
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('timestampMicros', () => {
  it('reads the API timestamps as instants, their fraction to the microsecond', () => {
    expect(timestampMicros('2026-11-28T14:05:09.123456Z')).toBe(Date.UTC(2026, 10, 28, 14, 5, 9) * 1000 + 123_456);
    expect(timestampMicros('2026-11-28T14:05:09+02:00')).toBe(Date.UTC(2026, 10, 28, 12, 5, 9) * 1000);
    expect(timestampMicros('2026-11-28T14:05-0130')).toBe(Date.UTC(2026, 10, 28, 15, 35) * 1000);
    expect(timestampMicros('2026-11-28')).toBe(Date.UTC(2026, 10, 28) * 1000);
    expect(timestampMicros('1969-12-31T23:59:59.9Z')).toBe(-100_000);
  });

  it('refuses days the month does not have and text that is no timestamp', () => {
    for (const s of ['2026-02-29', '2100-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', 'soon', '']) {
      expect(timestampMicros(s), s).toBeNaN();
    }
    expect(timestampMicros('2024-02-29')).toBe(Date.UTC(2024, 1, 29) * 1000);
    expect(timestampMicros('2000-02-29')).toBe(Date.UTC(2000, 1, 29) * 1000);
  });

  it('agrees with Date on every day of four centuries, and at the edges of the clock and the offsets', () => {
    const texts: string[] = [];
    for (let y = 1898; y <= 2402; y += 1) {
      for (let mo = 1; mo <= 12; mo++)
        for (let d = 28; d <= 31; d++) texts.push(`${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`);
    }
    for (const y of [0, 1, 4, 99, 100, 399, 400, 1600, 1970, 9999]) {
      for (const md of ['01-01', '02-28', '02-29', '03-01', '12-31']) texts.push(`${pad(y, 4)}-${md}`);
    }
    const clocks = ['00:00', '23:59:59', '24:00', '24:00:00', '23:60', '23:59:60', '12:30:45.5', '12:30:45.123456789'];
    const zones = [
      '',
      'Z',
      '+00:00',
      '-00:00',
      '+05:30',
      '-0800',
      '+2359',
      '+23:59',
      '-24:00',
      '+2400',
      '+12:60',
      '-99:99',
    ];
    for (const date of ['2026-01-01', '0000-01-01', '9999-12-31', '2024-02-29']) {
      for (const clock of clocks) for (const zone of zones) texts.push(`${date}T${clock}${zone}`);
    }
    for (const s of texts) {
      const expected = byDate(s);
      if (Number.isNaN(expected)) expect(timestampMicros(s), s).toBeNaN();
      else expect(timestampMicros(s), s).toBe(expected);
    }
  });
});
