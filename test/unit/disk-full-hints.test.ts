// A write that meets a full disk says so in the shared words ("the disk is full") with the shared hint, whatever file
// it was: no writer sends the user to pick another folder or directory that this user may write to, which would not help.
import { describe, expect, it } from 'vitest';
import { STATE_WRITE_HINT } from '../../src/jobs/watch/seen-state.js';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import { ConfigWriteError, fsReason } from '../../src/runtime/config/config-errors.js';
import { cannotWrite } from '../../src/runtime/files/write-errors.js';

/** What Node gives for a write to a full disk (as /dev/full gives), as the review saw it. */
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
const eacces = () =>
  Object.assign(new Error("EACCES: permission denied, open '/s/seen.json'"), { code: 'EACCES', errno: -13 });

describe('the --state file on a full disk', () => {
  it('is "free some space", not "a folder this user can write to"', () => {
    const err = cannotWrite('/s/seen.json', enospc(), STATE_WRITE_HINT) as CannotWriteError;
    expect(err).toBeInstanceOf(CannotWriteError);
    expect(err.message).toBe('cannot write /s/seen.json: the disk is full');
    expect(err.hint).toBe('free some space, or write to another disk');
    // Where the folder is the trouble, the state's own hint stays.
    expect((cannotWrite('/s/seen.json', eacces(), STATE_WRITE_HINT) as CannotWriteError).hint).toBe(STATE_WRITE_HINT);
  });
});

describe('the config file on a full disk', () => {
  it('says "the disk is full" and does not blame RECALL_FEED_CONFIG_DIR', () => {
    const cause = enospc();
    const err = new ConfigWriteError('/c/config.json', fsReason(cause), cause);
    expect(err.message).toBe('cannot write the config file /c/config.json: the disk is full');
    expect(err.hint).toBe('free some space, or write to another disk');
    // A folder it may not write still points at RECALL_FEED_CONFIG_DIR.
    const denied = eacces();
    const other = new ConfigWriteError('/c/config.json', fsReason(denied), denied);
    expect(other.message).toBe('cannot write the config file /c/config.json: permission denied (EACCES)');
    expect(other.hint).toBe('set RECALL_FEED_CONFIG_DIR to a writable directory');
  });
});
