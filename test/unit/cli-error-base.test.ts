// CliError: the CLI's own errors carry their exit code and hint, and error-reports.ts maps them with one rule.
import { describe, expect, it } from 'vitest';
import { BusyError, CannotWriteError, CliError, NotDeliveredError, UsageError } from '../../src/runtime/cli-errors.js';
import { describeError } from '../../src/runtime/error-reports.js';
import { StateFileError } from '../../src/jobs/watch/seen-state.js';

describe('CliError', () => {
  it('any subclass is reported with its own exit code, message and hint', () => {
    class OddError extends CliError {
      readonly exitCode = 42;
    }
    expect(describeError(new OddError('odd', 'try even'))).toEqual({ code: 42, message: 'odd', hints: ['try even'] });
    expect(describeError(new OddError('odd'))).toEqual({ code: 42, message: 'odd', hints: [] });
  });

  it('the CLI errors that had a hint of their own are CliErrors with their documented codes', () => {
    const cases: [CliError, number][] = [
      [new UsageError('u', 'h'), 2],
      [new BusyError('b', 'h'), 9],
      [new CannotWriteError('/x', 'disk full', 'h'), 10],
      [new NotDeliveredError('n', 'h'), 11],
    ];
    for (const [err, code] of cases) {
      expect(err).toBeInstanceOf(CliError);
      expect(describeError(err)).toMatchObject({ code, hints: ['h'] });
    }
    expect(describeError(new CannotWriteError('/x', 'disk full')).message).toBe('cannot write /x: disk full');
  });

  it('a subclass of UsageError keeps exit 2', () => {
    expect(StateFileError.prototype).toBeInstanceOf(UsageError);
  });
});
