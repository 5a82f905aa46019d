// fitting() and friends: the items in order while their bytes as sent (quoted-printable, wireBytes) fit, the rest never rendered.
import { encode, wrap } from 'nodemailer/lib/qp';
import { describe, expect, it } from 'vitest';
import { fitting, fittingLists, fittingSkip, wireBytes, withinBudget } from '../../src/output/digest/fit-budget.js';

/** What nodemailer sends for a text part forced to quoted-printable: CRLF line ends, lines wrapped at 76. */
const sentQp = (text: string) => Buffer.byteLength(wrap(encode(Buffer.from(text.replace(/\n/g, '\r\n'))), 76));

describe('wireBytes', () => {
  const samples = [
    'plain words in a short line',
    `<tr><td class="sev-serious">${'x'.repeat(300)}</td><td style="a=b">=</td></tr>`,
    'Kettle Deluxe · 电热水壶 召回 · Überhitzung · ≥ 2 kW '.repeat(40),
    'ends in spaces   \nand tabs\t\t\nnext',
    '\u0007 control \u001b bytes',
    'é'.repeat(500),
  ];

  it("is never less than what nodemailer's quoted-printable encoder sends", () => {
    for (const s of samples) expect(wireBytes(s)).toBeGreaterThanOrEqual(sentQp(s));
  });

  it('adds up over parts to at least the whole, so lists measured item by item never undercount', () => {
    const whole = samples.join('\n');
    const parts = samples.reduce((n, s, i) => n + wireBytes(i < samples.length - 1 ? `${s}\n` : s), 0);
    expect(parts).toBeGreaterThanOrEqual(wireBytes(whole));
  });
});

describe('fitting', () => {
  it('counts bytes as sent and the separator, stopping at the first item that does not fit', () => {
    const items = ['éé', 'ab', 'abcdef', 'a'];
    const size = (s: string) => sentQp(`${s}\n`);
    const room = wireBytes('éé\n') + wireBytes('ab\n');
    const two = fitting(items, (s) => s, room, '\n');
    expect(two).toEqual({ shown: ['éé', 'ab'], used: room });
    expect(two.used).toBeGreaterThanOrEqual(size('éé') + size('ab'));
    // A later small item is not taken once one did not fit.
    expect(fitting(items, (s) => s, room + wireBytes('abcdef\n') - 1, '\n').shown).toEqual(['éé', 'ab']);
    expect(fitting(items, (s) => s, 0)).toEqual({ shown: [], used: 0 });
    expect(fitting(items, (s) => s, Number.POSITIVE_INFINITY).shown).toEqual(items);
  });

  it('renders nothing past the first item that does not fit', () => {
    const rendered: number[] = [];
    const render = (n: number) => {
      rendered.push(n);
      return 'x'.repeat(10);
    };
    fitting([1, 2, 3, 4, 5], render, 2 * wireBytes('x'.repeat(10)) + 1);
    expect(rendered).toEqual([1, 2, 3]);
  });
});

describe('fittingSkip', () => {
  it('shows each row that fits and skips, not stops at, a row too big, returning those skipped', () => {
    const rows = ['K....', 'abcdefghijklmnopqrstuvwxyz', 'ab', 'a'];
    const room = wireBytes('K....\n') + wireBytes('ab\n') + wireBytes('a\n');
    expect(fittingSkip(rows, (s) => s, room, '\n')).toEqual({
      shown: ['K....', 'ab', 'a'],
      used: room,
      left: ['abcdefghijklmnopqrstuvwxyz'],
    });
    expect(fittingSkip(rows, (s) => s, 0)).toEqual({ shown: [], used: 0, left: rows });
  });
});

describe('fittingLists', () => {
  it('fills the lists in turn and, once one is cut, shows nothing of the next, counting every item left', () => {
    const lists = [['aaaa', 'bbbb'], [], ['c', 'd']];
    const all = ['aaaa', 'bbbb', 'c', 'd'].reduce((n, s) => n + wireBytes(`${s}\n`), 0);
    expect(fittingLists(lists, (s) => s, all, '\n')).toEqual({
      shown: [['aaaa', 'bbbb'], [], ['c', 'd']],
      used: all,
      left: 0,
    });
    // The first list is cut after one: the small c and d would fit but are not shown.
    const one = wireBytes('aaaa\n');
    expect(fittingLists(lists, (s) => s, one + 4, '\n')).toEqual({ shown: [['aaaa'], [], []], used: one, left: 3 });
    expect(fittingLists([[], ['x']], (s) => s, 0)).toEqual({ shown: [[], []], used: 0, left: 1 });
  });
});

describe('withinBudget', () => {
  it('renders again with less room until the whole fits as sent', () => {
    // Fixed text of 300 bytes the first reckoning missed, then as many 10-byte items as the room allows.
    const render = (room: number) => `${'f'.repeat(300)}${'i'.repeat(Math.max(0, Math.floor(room / 10)) * 10)}`;
    const out = withinBudget(render, 1000, 1000);
    expect(wireBytes(out)).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(300);
  });
});
