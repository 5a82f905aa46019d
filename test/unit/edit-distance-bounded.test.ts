// The "did you mean" search is bounded: names too long to be a typo of a field get no guess, and texts whose lengths
// alone differ by more than the limit are never compared.
import { describe, expect, it } from 'vitest';
import { RECALL_FIELDS } from '../../src/api/constants.js';
import { editDistanceWithin } from '../../src/filters/edit-distance.js';
import { validateConfigKey } from '../../src/runtime/config/config-keys.js';
import { checkKnownColumns, nearestNames } from '../../src/runtime/options/column-names.js';

describe('editDistanceWithin', () => {
  it('is the distance up to the limit, Infinity beyond it', () => {
    expect(editDistanceWithin('titel', 'title', 1)).toBe(1);
    expect(editDistanceWithin('kitten', 'sitting', 3)).toBe(3);
    expect(editDistanceWithin('kitten', 'sitting', 2)).toBe(Number.POSITIVE_INFINITY);
    expect(editDistanceWithin('x'.repeat(100_000), 'title', 33_333)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('nearestNames for an over-long name', () => {
  it('omits the guess for a name over 128 characters, even one a few edits from a known name', () => {
    const field = `${'a'.repeat(150)}_code`;
    expect(nearestNames(`${'a'.repeat(150)}_cod`, [field])).toEqual([]);
    // At 128 characters or fewer it is still guessed.
    expect(nearestNames(`${'a'.repeat(120)}_cod`, [`${'a'.repeat(120)}_code`])).toEqual([`${'a'.repeat(120)}_code`]);
  });

  it('a 100 KB --columns name outside the field grammar is refused with the known names, no guess', () => {
    expect(nearestNames('x'.repeat(100_000), RECALL_FIELDS)).toEqual([]);
    expect(() => checkKnownColumns([`${'x'.repeat(100_000)}-`], RECALL_FIELDS)).toThrow(
      expect.objectContaining({ hint: expect.stringMatching(/^known: id, /) }),
    );
  });

  it('a 1 MB config key is unknown, without a guess', () => {
    expect(() => validateConfigKey('p'.repeat(1_000_000))).toThrow(/^unknown config key "p+…?[^(]*; valid keys: /);
  });
});
