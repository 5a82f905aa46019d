// The archive's cases, or none with a note on an archive written before cases were kept.
import { CasesNotKeptError } from '../../archive/cases-errors.js';
import type { StatusReporter } from '../terminal/status.js';

/**
 * What `read` gives, or nothing when the archive predates cases (written by an earlier version, opened read-only,
 * so not brought forward): no cases, with a note naming what to do.
 */
export async function casesOrNone<T>(
  local: { archive: { readonly name: string }; status: StatusReporter },
  read: () => Promise<T[]>,
): Promise<T[]> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof CasesNotKeptError)) throw err;
    local.status.note(
      `${local.archive.name} was written by an earlier recall-feed and holds no cases yet (the next sync or match --open-cases adds them)`,
    );
    return [];
  }
}
