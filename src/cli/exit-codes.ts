// The exit codes by name. Which error gets which is decided in error-reports.ts alone; this table has no
// imports, so that main() can name `ok` and `usage` without loading every error class.
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notPermitted: 4,
  rateLimited: 5,
  unavailable: 6,
  invalidResponse: 7,
  /** `match --exit-code`: at least one catalogue row matched a recall. */
  matchFound: 8,
  /** Another run holds the lock on the same output or state file. */
  busy: 9,
  /** The output, state or archive file cannot be written (disk full, read-only, permissions, name too long). */
  cannotWrite: 10,
  /** `digest --email`/`--webhook`: the SMTP server or the webhook refused the digest or could not be reached. */
  notDelivered: 11,
  /** `cases verify`: an event of the case log was edited or removed. */
  caseLogBroken: 12,
  /** The archive's PostgreSQL server: wrong password, unknown host, server down, no such database, permission denied, connection lost. */
  database: 13,
  /** The archive file is damaged (SQLite found corrupt pages). */
  archiveDamaged: 14,
  /** `doctor`: every check passed or warned, and at least one warned. */
  doctorWarnings: 15,
  /** `doctor`: at least one check failed. */
  doctorFailed: 16,
  interrupted: 130,
} as const;
