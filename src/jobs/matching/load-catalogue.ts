// Reads a --catalog file for match, digest and report alike: a file that cannot be used is a usage error, before any request.
import { CatalogueColumnsError, type ColumnMap } from '../../match/catalogue-columns.js';
import { type Catalogue, CatalogueReadError, readCatalogue } from '../../match/catalogue.js';
import { CatalogueIndex } from '../../match/matcher.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { sayCatalogueWarningsOnce } from './catalogue-warnings-said.js';
import { learnedPath, readLearned } from './learned-file.js';
import { reportCatalogue } from './match-rows.js';
import { keyColumn } from './open-cases.js';

export async function loadCatalogue(file: string, map: ColumnMap): Promise<Catalogue> {
  return asUsageError(() => readCatalogue(file, map));
}

/** A catalogue that cannot be used, as a usage error: the --map hint helps with columns only. */
export function usageErrorOf(err: unknown): unknown {
  if (err instanceof CatalogueReadError) return new UsageError(err.message, err.hint);
  if (err instanceof CatalogueColumnsError)
    return new UsageError(err.message, 'name the columns with --map gtin=<col>,brand=<col>,model=<col>,name=<col>');
  return err;
}

/** Runs `read`, its catalogue errors said as usage errors. */
export async function asUsageError<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw usageErrorOf(err);
  }
}

/**
 * The catalogue, its index and its key column, as digest and report read them: a wrong --key is refused before any
 * warning, request or archive read; the catalogue's warnings said as match says them, but only when they differ
 * from those the last digest or report said (`env` finds where that is remembered). `sayOnce: false` (the MCP
 * server, which reads for an assistant, never for the cron log) says and records nothing: the warnings, the learned
 * file's among them, come back in `warnings`, always.
 */
export async function loadMatcher(
  file: string,
  map: ColumnMap,
  key: string | undefined,
  status: StatusReporter,
  env: Record<string, string | undefined>,
  opts: { sayOnce?: boolean } = {},
) {
  const catalogue = await loadCatalogue(file, map);
  const column = keyColumn(catalogue, key);
  // What match --learn learned for this catalogue, as match reads it: digest and report agree with match.
  const warnings: string[] = [];
  // A learned file that cannot be used is said each time, as match says it; for the MCP server, in `warnings`.
  const learnedSaid = opts.sayOnce === false ? { warn: (text: string) => warnings.push(text) } : status;
  const learned = await readLearned(learnedPath(file, undefined), learnedSaid);
  const index = new CatalogueIndex(catalogue, { learned });
  reportCatalogue(catalogue, index.rejected, { warn: (text) => warnings.push(text) });
  if (opts.sayOnce !== false) await sayCatalogueWarningsOnce(file, warnings, (text) => status.warn(text), env);
  return { catalogue, index, column, warnings };
}
