// Errors of the case store, without dependencies, so the CLI maps them to exit codes without loading SQLite.

/** No case with this id in the archive. */
export class CaseNotFoundError extends Error {
  override name = 'CaseNotFoundError';
  constructor(readonly id: number) {
    super(`no case ${id} in the archive`);
  }
}

/** A step the case's status does not allow (resolving a closed case, reopening an open one). */
export class CaseStepError extends Error {
  override name = 'CaseStepError';
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** `cases verify` found an event edited, removed or out of place; the message names the first one. */
export class CaseLogBrokenError extends Error {
  override name = 'CaseLogBrokenError';
}

/** The archive was written by a version before cases (read-only, so not brought forward): it holds none yet. */
export class CasesNotKeptError extends Error {
  override name = 'CasesNotKeptError';
  constructor(readonly archive: string) {
    super(`${archive} is from an earlier recall-feed (before cases): it holds no cases yet`);
  }
}
