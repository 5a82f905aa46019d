// Why a catalogue could not be read: the errors `match` turns into one line and a hint.

export class CatalogueReadError extends Error {
  override name = 'CatalogueReadError';
  constructor(
    message: string,
    /** What to do about it, when the --map hint would not help. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The file was rewritten between two reads of one run (an export still running): its two passes would disagree. */
export class CatalogueChangedError extends CatalogueReadError {
  override name = 'CatalogueChangedError';
  constructor(file: string) {
    super(`the catalogue ${file} changed while it was read`, 'run match again');
  }
}

/** A JSON array's start (`[{`, `[]`): no CSV header starts so, and match reads JSON one object a line. */
const JSON_ARRAY = /^\[\s*[{\]]/;

/** The error for a catalogue whose text starts as a JSON array; undefined for any other start. */
export function jsonArrayError(file: string, start: string): CatalogueReadError | undefined {
  if (!JSON_ARRAY.test(start)) return undefined;
  return new CatalogueReadError(
    `${file} is a JSON array: match reads CSV, or JSON lines (one object a line)`,
    "write it one object a line, e.g. jq -c '.[]' < products.json > products.jsonl",
  );
}

/** Why a catalogue could not be read, in words, with what to do where that is not plain. */
const READ_PROBLEMS: Record<string, [why: string, hint?: string]> = {
  ENOENT: ['no such file'],
  EISDIR: ['it is a folder'],
  EACCES: ['permission denied', 'let this user read it (chmod o+r), or run as a user who may'],
  EPERM: ['permission denied', 'let this user read it (chmod o+r), or run as a user who may'],
  ENOTDIR: ['a part of the path is not a folder'],
  ELOOP: ['its link points round in a circle'],
  EIO: ['an input/output error', 'check the disk, or copy the file somewhere readable'],
};

export function readError(file: string, err: unknown): CatalogueReadError {
  const code = (err as NodeJS.ErrnoException).code;
  const [why, hint] = (code && READ_PROBLEMS[code]) || [code ?? (err as Error).message];
  return new CatalogueReadError(`cannot read the catalogue ${file}: ${why}`, hint);
}
