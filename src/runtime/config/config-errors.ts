// Errors of the config store and key validation, each with a message fit for the terminal and a hint.
import { diskFull } from '../files/write-errors.js';

/** Base of the config errors; `hint` is a next step for the user, printed after the message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly hint: string | undefined;
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
  }
}

/** An unknown key, or a value the key does not accept: a usage error. */
export class ConfigValueError extends ConfigError {
  override name = 'ConfigValueError';
}

/** The config file exists but cannot be read or is not valid: it is left untouched. */
export class ConfigReadError extends ConfigError {
  override name = 'ConfigReadError';
  readonly path: string;
  constructor(path: string, reason: string, cause?: unknown) {
    super(`cannot read the config file ${path}: ${reason}`, {
      hint: 'fix or remove the file (it was left untouched), or point RECALL_FEED_CONFIG_DIR at another directory',
      cause,
    });
    this.path = path;
  }
}

/** What is wrong with the shape of a config file (config-shape.ts); reported as a ConfigReadError. */
export class ConfigShapeError extends Error {
  override name = 'ConfigShapeError';
}

/** The config file or its directory cannot be written (read-only HOME, no space, ...). */
export class ConfigWriteError extends ConfigError {
  override name = 'ConfigWriteError';
  readonly path: string;
  constructor(path: string, reason: string, cause?: unknown) {
    super(`cannot write the config file ${path}: ${reason}`, {
      // A full disk is no fault of the folder: the hint every writer gives for it.
      hint: diskFull(cause)?.hint ?? 'set RECALL_FEED_CONFIG_DIR to a writable directory',
      cause,
    });
    this.path = path;
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a parent of it is not a directory',
  EEXIST: 'a file is in the way of its directory',
  EISDIR: 'it is a directory',
};

/** A short reason for a filesystem error: "permission denied (EACCES)"; a full disk as every writer says it. */
export function fsReason(err: unknown): string {
  const full = diskFull(err);
  if (full) return full.reason;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return `${REASONS[code]} (${code})`;
  return err instanceof Error ? err.message : String(err);
}
