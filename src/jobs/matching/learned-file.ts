// Where `match --learn` keeps what it learned for a catalogue, and how match, digest and report read it back.
import { readFile } from 'node:fs/promises';
import { type Learned, parseLearned } from '../../match/learned.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';

/** Beside the catalogue (`products.csv.learned.json`), or the file `--learned` names. */
export function learnedPath(catalogue: string, given: string | undefined): string {
  return given ?? `${catalogue}.learned.json`;
}

/**
 * What was learned for this catalogue, when anything was; a file that is not one `--learn` wrote is said and ignored,
 * and so is a file the user named (`given`, --learned) that is not there: a typo would drop what was learned unsaid.
 */
export async function readLearned(
  file: string,
  status: Pick<StatusReporter, 'warn'>,
  given = false,
): Promise<Learned | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (given) status.warn(`--learned ${file}: no such file; matching without what match --learn learned`);
      return undefined;
    }
    status.warn(`cannot read ${file} (${(err as Error).message}): matching without what match --learn learned`);
    return undefined;
  }
  const learned = parseLearned(text);
  if (learned === undefined)
    status.warn(`${file} is not a file match --learn wrote: ignored (run match --learn again to rewrite it)`);
  return learned;
}
