// The exit codes by name. Which error gets which is decided in error-table.ts alone; this table has no
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
  /** Another run holds the lock on the same output or state file, or a SQLite archive's write lock. */
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
  /** The SQLite driver (better-sqlite3 and its compiled binding) cannot be loaded: an install problem, not a bug. */
  sqliteDriver: 17,
  interrupted: 130,
} as const;

/** What each exit code means: `summary` for the root help, `detail` for `help exit-codes` and docs/exit-codes.md. */
export interface ExitMeaning {
  summary: string;
  detail: string;
}

/**
 * The one list of exit codes and their meanings; the root help, `recall-feed help exit-codes` and
 * docs/exit-codes.md (`npm run docs`) are generated from it. Keyed by EXIT's names, so a code added there
 * without a meaning here fails the typecheck.
 */
export const EXIT_MEANINGS: Record<keyof typeof EXIT, ExitMeaning> = {
  ok: { summary: 'ok (also no results)', detail: 'success, including no results' },
  unexpected: { summary: 'unexpected', detail: 'unexpected error' },
  usage: {
    summary: 'usage',
    detail:
      'usage error: a bad flag or value (no request was sent; an empty `--timeout=` too, and a date the calendar lacks such as `--since 2026-02-30`), an `-o` extension of a format not written (`.gz`, `.tsv`) without `-f`, `-f` or `-o` given to a command that writes no file format (`schema`, `completion`, `config`, `sandbox`, `mcp`), a selection flag of `cases` given to `cases show` or `cases verify`, a csv header that `--append` cannot follow, a proxy setting that is not an address, a base URL with a user or password, or a query, in it (`--base-url`, `RECALL_FEED_BASE_URL`, the profile or `config set base-url`: never sent, so refused rather than kept where a resume command would print it), a PostgreSQL `--db` URL to another machine that sets no `sslmode` (the password would cross the network unencrypted), or the API rejected the parameters, or found the request too large (413, 414, 431: a long `--cursor` or many `--sources`); an unreadable state file or config file (not valid JSON after a hand edit); records without an `id` under `--state` or `--watch`; a missing archive, one made by a newer version, or sandbox and real recalls in one archive; a sandbox port already taken',
  },
  auth: {
    summary: 'API key',
    detail:
      'API key: missing, rejected, or containing control or non-ASCII characters (refused before any request); Ctrl-C at the key prompt is 130',
  },
  notPermitted: {
    summary: 'not permitted',
    detail: 'not permitted: unauthorized data sources, 403, or an unknown custom feed',
  },
  rateLimited: {
    summary: 'rate limited',
    detail:
      'rate limited: monthly quota spent, or a wait longer than `--max-wait` (a reset more than 31 days away says its date and that waiting is pointless)',
  },
  unavailable: {
    summary: 'API unavailable',
    detail:
      'API unavailable: network, timeout (408 too), 5xx, unhealthy; TLS failures (an untrusted certificate, https to a plain-http server); a proxy that cannot be reached or refuses (407: its credentials)',
  },
  invalidResponse: {
    summary: 'invalid response',
    detail:
      "invalid response from the API: malformed, larger than `--max-response-mb`, headers too large, nested more than 256 levels, `success: false` without a reason, a 4xx status the API does not use (418, 405, 451), paging that breaks its own rules (a `next_cursor` missing, sent twice, or refused after the API sent it, again after starting over; 3 pages in a row with nothing new; far more pages than `total_count` needs), a redirect, or a 404 that is not the API's (a wrong `--base-url`); also a record value of another shape than its Parquet column (`-f jsonl` or `-f csv` write any shape)",
  },
  matchFound: {
    summary: 'match found (match --exit-code)',
    detail: 'match found: `match --exit-code` and at least one row is a `match`',
  },
  busy: {
    summary: 'busy (another run holds the file)',
    detail:
      'busy: another run holds the output or state file for longer than `--lock-wait`, or another process keeps a SQLite archive locked for more than 30 s (a writer, or a reader while a sync switches the file to WAL)',
  },
  cannotWrite: {
    summary: 'cannot write a file',
    detail:
      'cannot write the output, state, archive, learned or config file: disk full, read-only, permission denied, name too long, a folder that does not exist (for `-o`, `--state`, `--db` and `--learned`; refused before any request), a `--state` link into a folder that is gone (the message names the path and the reason)',
  },
  notDelivered: {
    summary: 'digest not delivered',
    detail:
      'not delivered: `digest --email` or `digest --webhook` could not deliver the digest (the SMTP server refused it or could not be reached; the message names the server, never the password)',
  },
  caseLogBroken: {
    summary: 'case log broken (cases verify)',
    detail:
      'case log broken: `cases verify` found an event edited or removed, or a case changed behind its timeline (the message names the first bad event)',
  },
  database: {
    summary: 'archive database unreachable or refused',
    detail:
      "the archive's PostgreSQL database: wrong user or password, unknown host, no server answering, no such database, permission denied, the connection lost mid-command, an upgrade only the schema's owner may run, another writer holding the write lock longer than `RECALL_FEED_DB_LOCK_WAIT` (default 30 s), a lock or statement timeout, a read-only database or a standby in recovery, the server out of disk space or memory, a server limit (`temp_file_limit`), or an idle timeout that ended the session (the message names host and database, never the password)",
  },
  archiveDamaged: {
    summary: 'archive file damaged',
    detail: 'the archive file is damaged (the message names it; restore a backup, or move it aside and sync again)',
  },
  doctorWarnings: {
    summary: 'doctor: warnings only',
    detail: '`doctor`: every check passed or warned, and at least one warned',
  },
  doctorFailed: { summary: 'doctor: a check failed', detail: '`doctor`: at least one check failed' },
  sqliteDriver: {
    summary: 'SQLite driver cannot be loaded (reinstall)',
    detail:
      'the SQLite driver (better-sqlite3, and the part of it compiled at install) cannot be loaded, so no SQLite archive opens, not even the one in memory of `stats --live`: an install problem, not a bug (Node.js upgraded since the install, a node_modules copied from another machine or image, an install with `--ignore-scripts` or one broken off). `npm rebuild better-sqlite3` in the folder recall-feed is installed in mends it, or reinstall recall-feed; a PostgreSQL `--db` needs no driver',
  },
  interrupted: { summary: 'interrupted', detail: 'interrupted (Ctrl-C, SIGTERM or SIGHUP)' },
};

/** The codes in ascending order, each with its name and meaning. */
export function exitCodeList(): { code: number; name: keyof typeof EXIT; meaning: ExitMeaning }[] {
  return (Object.keys(EXIT) as (keyof typeof EXIT)[])
    .map((name) => ({ code: EXIT[name], name, meaning: EXIT_MEANINGS[name] }))
    .sort((a, b) => a.code - b.code);
}
