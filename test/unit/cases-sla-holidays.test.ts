// --calendar: a public holiday of several days is a holiday on each of its days, also across New Year (dates by hand).
import { describe, expect, it } from 'vitest';
import { dueAt, parseSla, prepareSla } from '../../src/jobs/matching/sla.js';

async function twoWorkingDays(country: string) {
  const sla = parseSla('2wd', country)!;
  await prepareSla(sla);
  return sla;
}

describe('--sla <n>wd --calendar: holidays of several days', () => {
  it('TR: Kurban Bayramı (Wed 27 to Sun 31 May 2026) is holidays on all its working days', async () => {
    // Published Tue 26 May: 27, 28, 29 holiday, 30-31 weekend; Mon 1 June (1), Tue 2 June (2).
    expect(dueAt(await twoWorkingDays('TR'), '2026-05-26T10:00:00Z')).toBe('2026-06-02T10:00:00.000Z');
  });

  it('SA: Eid al-Fitr (Thu 19 to Sun 22 March 2026) is holidays on all its working days', async () => {
    // Published Wed 18 March: 19, 20 holiday, 21-22 weekend; Mon 23 (1), Tue 24 (2).
    expect(dueAt(await twoWorkingDays('SA'), '2026-03-18T10:00:00Z')).toBe('2026-03-24T10:00:00.000Z');
  });

  it('SZ: Incwala (28 December 2025 to 2 January 2026) runs into the new year', async () => {
    const sz = parseSla('1wd', 'SZ')!;
    await prepareSla(sz);
    // Published Wed 31 Dec: Thu 1 Jan New Year, Fri 2 Jan still Incwala, then the weekend: Mon 5 Jan (1).
    expect(dueAt(sz, '2025-12-31T10:00:00Z')).toBe('2026-01-05T10:00:00.000Z');
  });

  it('AE: a holiday beginning at sunset the evening before leaves that evening’s day a working day', async () => {
    // Islamic New Year, Tue 16 June 2026 (from 18:00 on Monday 15 in date-holidays): published Fri 12 June,
    // Mon 15 (1), Tue 16 holiday, Wed 17 (2).
    expect(dueAt(await twoWorkingDays('AE'), '2026-06-12T10:00:00Z')).toBe('2026-06-17T10:00:00.000Z');
  });
});
