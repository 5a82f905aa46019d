// Errors of the archive store, and which database failures mean "this file cannot be written".

/** Base class: every archive problem the user can act on. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.file = file;
  }
}

/** query/show/stats before any sync: there is nothing to read. */
export class ArchiveMissingError extends ArchiveError {
  override name = 'ArchiveMissingError';
  constructor(file: string) {
    super(file, `no archive at ${file}`);
  }
}

/** A file written by a newer recall-feed: never rewritten, never read with a schema we do not know. */
export class ArchiveTooNewError extends ArchiveError {
  override name = 'ArchiveTooNewError';
  readonly fileVersion: number;
  readonly knownVersion: number;
  constructor(file: string, fileVersion: number, knownVersion: number) {
    super(
      file,
      `${file} was made by a newer recall-feed (archive schema ${fileVersion}; this one knows up to ${knownVersion})`,
    );
    this.fileVersion = fileVersion;
    this.knownVersion = knownVersion;
  }
}

/** An archive from an earlier version, opened read-only: what needs its newer tables asks for a sync (which upgrades it) first. */
export class ArchiveTooOldError extends ArchiveError {
  override name = 'ArchiveTooOldError';
  constructor(file: string, fileVersion: number, needed: number, what = 'the digest') {
    super(file, `${file} was made by an earlier recall-feed (archive schema ${fileVersion}; ${what} needs ${needed})`);
  }
}

/** A file that is not a SQLite database, or a database of some other program. */
export class NotAnArchiveError extends ArchiveError {
  override name = 'NotAnArchiveError';
  constructor(file: string, why: string) {
    super(file, `${file} is not a recall-feed archive: ${why}`);
  }
}

/** A SQLite file whose pages are damaged (SQLITE_CORRUPT, SQLITE_NOTADB after the header). */
export class ArchiveCorruptError extends ArchiveError {
  override name = 'ArchiveCorruptError';
  constructor(file: string, detail: string) {
    super(file, `the archive ${file} is damaged (${detail})`);
  }
}

/**
 * A SQLite archive another process kept locked longer than the wait allowed (SQLITE_BUSY at the end of it): a writer,
 * or a reader while a writer switches the file to WAL.
 */
export class ArchiveBusyError extends ArchiveError {
  override name = 'ArchiveBusyError';
  constructor(file: string, waitedSeconds: number) {
    super(file, `the archive ${file} is busy: another process kept it locked for more than ${waitedSeconds} s`);
  }
}

/** Sandbox recalls into an archive of real ones, or the other way round. */
export class ArchiveOriginError extends ArchiveError {
  override name = 'ArchiveOriginError';
  readonly holds: string;
  constructor(file: string, holds: 'api' | 'sandbox') {
    super(
      file,
      holds === 'sandbox'
        ? `${file} holds the sandbox's invented recalls: real ones are not mixed into it`
        : `${file} holds real recalls: the sandbox's invented ones are not mixed into it`,
    );
    this.holds = holds;
  }
}

/**
 * better-sqlite3, or the native binding it compiles at install (better_sqlite3.node), cannot be loaded: an install
 * problem, not a bug (a Node.js upgraded since the install, a node_modules copied from another machine, an install
 * that skipped or broke off the compile). No SQLite archive opens, even in memory; a PostgreSQL one needs no driver.
 */
export class SqliteDriverError extends ArchiveError {
  override name = 'SqliteDriverError';
  /** The folder whose node_modules holds better-sqlite3 (where `npm rebuild better-sqlite3` mends it), when known. */
  readonly installFolder: string | undefined;
  constructor(file: string, reason: string, installFolder?: string) {
    super(file, `the SQLite driver (better-sqlite3) could not be loaded: ${reason}`);
    this.installFolder = installFolder;
  }
}

/** Node's own words for a native binding that cannot load, when a code does not say it (ERR_DLOPEN_FAILED does). */
const BROKEN_BINDING =
  /NODE_MODULE_VERSION|file too short|invalid ELF header|wrong ELF class|not a valid Win32 application/;

/**
 * `err` as a SqliteDriverError when it says the driver could not be loaded; undefined for anything else, which is
 * thrown as it is. Only for the import of the SQLite engine and better-sqlite3's `new Database` (which loads the
 * native binding at the first connection): a failure of Node's dynamic loader there (ERR_DLOPEN_FAILED: a damaged
 * file, another Node.js's ABI, another architecture or libc), the `bindings` package finding no compiled file, or the
 * package itself (or `bindings`, its one dependency) missing from node_modules.
 */
/** A module missing for the driver itself: one the driver's own files (or `bindings'`) require (file-uri-to-path). */
function requiredByDriver(err: Error): boolean {
  const stack = (err as { requireStack?: unknown }).requireStack;
  return (
    Array.isArray(stack) &&
    stack.some((p) => typeof p === 'string' && /[\\/]node_modules[\\/](?:better-sqlite3|bindings)[\\/]/.test(p))
  );
}

export function sqliteDriverError(file: string, err: unknown): SqliteDriverError | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code } = err as { code?: unknown };
  const text = err.message;
  const missing =
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    (/^Cannot find (?:module|package) '(?:better-sqlite3|bindings)'/.test(text) || requiredByDriver(err));
  const broken =
    code === 'ERR_DLOPEN_FAILED' ||
    text.startsWith('Could not locate the bindings file') ||
    (text.includes('.node') && BROKEN_BINDING.test(text));
  if (!missing && !broken) return undefined;
  const tried = (err as { tries?: unknown }).tries;
  const where = Array.isArray(tried) && typeof tried[0] === 'string' ? tried[0] : text;
  return new SqliteDriverError(file, driverReason(text), installFolderIn(where));
}

/** The reason in one line: Node's message of another ABI spans five, the `bindings` package's lists every path tried. */
function driverReason(message: string): string {
  const flat = message.replace(/\s+/g, ' ');
  const abi = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires NODE_MODULE_VERSION (\d+)/.exec(flat);
  if (abi)
    return `it was built for another Node.js (NODE_MODULE_VERSION ${abi[1]}; Node.js ${process.versions.node} needs ${abi[2]})`;
  const first = (message.split('\n')[0] ?? '').trim();
  return first.replace(/\.? Tried:$/, '') || 'no reason given';
}

/** The folder above the node_modules that holds better-sqlite3, from a path of its, in `text`. */
function installFolderIn(text: string): string | undefined {
  return /(\/[^'\n]*?|[A-Za-z]:\\[^'\n]*?)[\\/]node_modules[\\/]better-sqlite3[\\/]/.exec(text)?.[1];
}

/** Why the archive's database server cannot be used; each kind has its own hint. */
export type DatabaseProblem =
  | 'password'
  /** The server asked for a password and none was given: not in the URL, PGPASSWORD or the password file. */
  | 'no-password'
  | 'host'
  | 'down'
  | 'database'
  | 'permission'
  /**
   * The connection dropped mid-command (`lost`), or while a sync stored a page (`lost-page`); also a refusal whose
   * remedy is to run the command again once the server's trouble is over (its disk or memory: SQLSTATE class 53).
   */
  | 'lost'
  | 'lost-page'
  /** The server closed the connection before any session started (a TLS negotiation it does not speak). */
  | 'closed'
  /** The archive needs an upgrade that only its schema's owner (or a member of that role) may run. */
  | 'owner'
  | 'ssl'
  /** A lock waited for past lock_timeout (55P03), or the archive's write lock past the wait allowed. */
  | 'lock'
  /** A statement ran past statement_timeout (57014). */
  | 'timeout'
  /**
   * The server refused the session as it started (a setting of the URL's ?options=, too many connections...), or a
   * statement by a setting of the session, role or database: read-only (25006, a standby's too), temp_file_limit
   * (53400), idle_in_transaction_session_timeout (25P03).
   */
  | 'session';

/** The PostgreSQL server could not be reached or refused us. `file` is the URL without its password. */
export class ArchiveDatabaseError extends ArchiveError {
  override name = 'ArchiveDatabaseError';
  readonly problem: DatabaseProblem;
  constructor(file: string, problem: DatabaseProblem, message: string) {
    super(file, message);
    this.problem = problem;
  }
}

const SQLITE_REASONS: Record<string, string> = {
  SQLITE_READONLY: 'the file or its folder is read-only',
  SQLITE_FULL: 'the disk is full',
  SQLITE_CANTOPEN: 'it cannot be opened (missing folder or no permission)',
  SQLITE_PERM: 'permission denied',
  SQLITE_IOERR: 'an input/output error',
};

/**
 * What a failed file-system call means, in words: the one table for every file the tool reads or writes (the archive,
 * the -o, state and metrics files through src/runtime/files/write-errors.ts, a TLS file the --db URL names). ENOENT
 * is said by `fileErrorWords`: the file itself when it is read, its folder when it is created.
 */
const FILE_ERRORS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'the file name is too long',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
  EFBIG: 'the file is too large',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EPIPE: 'the reading end was closed',
  ENXIO: 'no such device, or a socket that cannot be opened by name',
  ETXTBSY: 'the file is busy',
};

/**
 * Why a file-system call failed, in words ("permission denied"): `read` a file that must exist, `write` one that is
 * created (ENOENT: its folder is missing). A system error without words is its code and call (`EXDEV (rename)`).
 * Undefined for anything else: Node's own ERR_* codes are bugs, not the disk.
 */
export function fileErrorWords(err: unknown, use: 'read' | 'write'): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  if (code === 'ENOENT') return use === 'read' ? 'no such file' : 'its folder does not exist';
  if (FILE_ERRORS[code]) return FILE_ERRORS[code];
  const syscall = (err as { syscall?: unknown }).syscall;
  return typeof syscall === 'string' ? `${code} (${syscall})` : code;
}

/** Why a database or file-system error means the archive cannot be written; undefined for other errors. */
export function cannotWriteReason(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  // What creating the folder (mkdir -p) says when a part of the path is a file.
  if (code === 'EEXIST') return FILE_ERRORS.ENOTDIR;
  // ENOENT: only a missing folder, as the file itself is created (sqlite/open.ts).
  if (Object.hasOwn(FILE_ERRORS, code) || code === 'ENOENT') return fileErrorWords(err, 'write');
  // Extended result codes (SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, ...) share their primary's meaning.
  const primary = Object.keys(SQLITE_REASONS).find((p) => code === p || code.startsWith(`${p}_`));
  return primary ? SQLITE_REASONS[primary] : undefined;
}
