// fitting(): the items in order while their UTF-8 bytes fit, the rest never rendered.
import { describe, expect, it } from 'vitest';
import { fitting, fittingKept, fittingLists } from '../../src/output/digest/fit-budget.js';

describe('fitting', () => {
  it('counts UTF-8 bytes and the separator, stopping at the first item that does not fit', () => {
    // 'é' is 2 bytes: items of 4, 2 and 6 bytes, plus 1 separator each = 5, 3, 7.
    const items = ['éé', 'ab', 'abcdef', 'a'];
    expect(fitting(items, (s) => s, 8, 1)).toEqual({ shown: ['éé', 'ab'], used: 8 });
    // A later small item is not taken once one did not fit.
    expect(fitting(items, (s) => s, 10, 1)).toEqual({ shown: ['éé', 'ab'], used: 8 });
    expect(fitting(items, (s) => s, 4)).toEqual({ shown: ['éé'], used: 4 });
    expect(fitting(items, (s) => s, 0)).toEqual({ shown: [], used: 0 });
    expect(fitting(items, (s) => s, Number.POSITIVE_INFINITY).shown).toEqual(items);
  });

  it('renders nothing past the first item that does not fit', () => {
    const rendered: number[] = [];
    const render = (n: number) => {
      rendered.push(n);
      return 'x'.repeat(10);
    };
    fitting([1, 2, 3, 4, 5], render, 25);
    expect(rendered).toEqual([1, 2, 3]);
  });
});

describe('fittingKept', () => {
  it('shows every kept row whatever it takes and skips, not stops at, another row too big', () => {
    // Rows of 6, 9, 3 and 2 bytes with the separator; only 'K' rows must show.
    const rows = ['K....', 'abcdefgh', 'ab', 'a'];
    const kept = (s: string) => s.startsWith('K');
    expect(fittingKept(rows, (s) => s, kept, 11, 1)).toEqual({ shown: ['K....', 'ab', 'a'], used: 11, left: 1 });
    expect(fittingKept(rows, (s) => s, kept, 0, 1)).toEqual({ shown: ['K....'], used: 6, left: 3 });
    expect(
      fittingKept(
        rows,
        (s) => s,
        () => false,
        0,
      ),
    ).toEqual({ shown: [], used: 0, left: 4 });
  });
});

describe('fittingLists', () => {
  it('fills the lists in turn and, once one is cut, shows nothing of the next, counting every item left', () => {
    const lists = [['aaaa', 'bbbb'], [], ['c', 'd']];
    // 5 bytes each with the separator: the first list fits, then c and d (2 each).
    expect(fittingLists(lists, (s) => s, 14, 1)).toEqual({
      shown: [['aaaa', 'bbbb'], [], ['c', 'd']],
      used: 14,
      left: 0,
    });
    // The first list is cut after one: the small c and d would fit but are not shown.
    expect(fittingLists(lists, (s) => s, 9, 1)).toEqual({ shown: [['aaaa'], [], []], used: 5, left: 3 });
    expect(fittingLists([[], ['x']], (s) => s, 0)).toEqual({ shown: [[], []], used: 0, left: 1 });
  });
});
