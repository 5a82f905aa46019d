// The digest's own sentences: counts read as the subject writes them.
import { describe, expect, it } from 'vitest';
import { type Digest, recallsLine } from '../../src/output/digest/digest-view.js';

describe('digest lines', () => {
  it('group the digits of the counts they say, as the subject does', () => {
    const d = { counts: { new: 1236, updated: 1 }, health: { complete: true } } as unknown as Digest;
    expect(recallsLine(d)).toBe('1,236 new recalls and 1 updated recall, serious and high first.');
  });
});
