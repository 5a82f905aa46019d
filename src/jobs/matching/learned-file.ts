// Where `match --learn` keeps what it learned for a catalogue, and how match, digest and report read it back.
import { readFile } from 'node:fs/promises';
import { type Learned, parseLearned } from '../../match/learned.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';

/** Beside the catalogue (`products.csv.learned.json`), or the file `--learned` names. */
export function learnedPath(catalogue: string, given: string | undefined): string {
  return given ?? `${catalogue}.learned.json`;
}

/** What was learned for this catalogue, when anything was; a file that is not one `--learn` wrote is said and ignored. */
export async function readLearned(file: string, status: StatusReporter): Promise<Learned | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    status.warn(`cannot read ${file} (${(err as Error).message}): matching without what match --learn learned`);
    return undefined;
  }
  const learned = parseLearned(text);
  if (learned === undefined)
    status.warn(`${file} is not a file match --learn wrote: ignored (run match --learn again to rewrite it)`);
  return learned;
}
