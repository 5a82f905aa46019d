// PostgreSQL's refusals a user or DBA can cause (a read-only role or a standby, a full disk on the server, its memory,
// temp_file_limit, the idle timeouts that end a session) are exit 13 with one line naming host and database, never the
// server's file paths or the password. The errors are pg's as the server sends them (the messages a review got from
// PostgreSQL 15); the ones a test server can be made to give are also run for real in
// test/behaviour/archive-pg-refusals.test.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dbTarget } from '../../src/archive/db-target.js';
import { databaseError } from '../../src/archive/postgres/connect.js';
import { describeError } from '../../src/runtime/error-reports.js';

const given = dbTarget('postgres://rsync:SyncPw-Secret-77@127.0.0.1:54777/comp');
if (given.kind !== 'postgres') throw new Error('not a URL');
const target = given;

/** pg's error for an ErrorResponse with `code`. */
function serverError(code: string, message: string): pg.DatabaseError {
  const err = new pg.DatabaseError(message, message.length, 'error');
  err.code = code;
  err.severity = 'ERROR';
  return err;
}

/** What the run ends with, as describeError reports an error the store named. */
function reported(err: unknown, context: Parameters<typeof databaseError>[2] = {}) {
  const named = databaseError(target, err, context);
  const { code, message } = describeError(named ?? err);
  return { code, message };
}

const DB = 'database comp on 127.0.0.1';

describe("the server's refusals, named", () => {
  it('25006 (read-only role, database or standby): exit 13, what to check', () => {
    const err = serverError('25006', 'cannot execute INSERT in a read-only transaction');
    expect(reported(err)).toEqual({
      code: 13,
      message: `PostgreSQL refused to write in ${DB}: the role or database is read-only (default_transaction_read_only), or the server is a standby in recovery (--db must name the primary)`,
    });
  });

  it("53100 (the server's disk full): exit 13, and never the file the server could not extend", () => {
    const err = serverError(
      '53100',
      'could not extend file "pg_tblspc/24687/PG_15_202209061/24688/24714": No space left on device',
    );
    const during = reported(err, { pages: true, wrote: true });
    expect(during).toEqual({
      code: 13,
      message: `the database server of ${DB} is out of disk space; the page being stored was not committed`,
    });
    expect(reported(err, { wrote: true }).message).toBe(
      `the database server of ${DB} is out of disk space; only what this command committed before is kept`,
    );
    expect(JSON.stringify(during)).not.toContain('pg_tblspc');
  });

  it('53200 (out of memory) and any other of class 53: exit 13, no detail of the server', () => {
    const oom = serverError('53200', 'out of memory');
    expect(reported(oom)).toEqual({
      code: 13,
      message: `the database server of ${DB} ran out of memory; nothing of this command was committed`,
    });
    const other = serverError('53000', 'could not resize shared memory segment "/PostgreSQL.1804289383" to 8 bytes');
    expect(reported(other)).toEqual({
      code: 13,
      message: `the database server of ${DB} is short of resources; nothing of this command was committed`,
    });
  });

  it('53400 (temp_file_limit): exit 13, the limit named', () => {
    const err = serverError('53400', 'temporary file size exceeds temp_file_limit (0kB)');
    expect(reported(err)).toEqual({
      code: 13,
      message: `a statement went past a limit the server sets in ${DB}: temporary file size exceeds temp_file_limit (0kB); nothing of this command was committed`,
    });
  });

  it('25P03 and 57P05 (the idle timeouts end the session): exit 13, which timeout', () => {
    const idleInTransaction = serverError('25P03', 'terminating connection due to idle-in-transaction timeout');
    expect(reported(idleInTransaction)).toEqual({
      code: 13,
      message: `PostgreSQL ended the session in ${DB}: a transaction waited between two statements longer than idle_in_transaction_session_timeout; nothing of this command was committed`,
    });
    const idle = serverError('57P05', 'terminating connection due to idle-session timeout');
    expect(reported(idle)).toEqual({
      code: 13,
      message: `PostgreSQL ended the session in ${DB} at its idle_session_timeout; nothing of this command was committed`,
    });
  });
});
