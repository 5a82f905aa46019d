// fitting(): the items in order while their UTF-8 bytes fit, the rest never rendered.
import { describe, expect, it } from 'vitest';
import { fitting } from '../../src/output/digest/fit-budget.js';

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
