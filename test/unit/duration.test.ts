// The one duration grammar, as --pace and the sandbox's flags read it.
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/api/duration.js';

describe('parseDuration', () => {
  it('reads a number with a unit, in milliseconds', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('2w')).toBe(1_209_600_000);
    expect(parseDuration(' 3s ')).toBe(3000);
  });

  it('takes a bare number only when the caller names its unit', () => {
    expect(parseDuration('10')).toBeUndefined();
    expect(parseDuration('10', 'ms')).toBe(10);
    expect(parseDuration('10', 's')).toBe(10_000);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 's', '-1s', '1 s', '1e3ms', '0x10s', '1.s']) expect(parseDuration(bad)).toBeUndefined();
  });
});
