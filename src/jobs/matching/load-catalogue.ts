// Reads a --catalog file for match, digest and report alike: a file that cannot be used is a usage error, before any request.
import { CatalogueColumnsError, type ColumnMap } from '../../match/catalogue-columns.js';
import { type Catalogue, CatalogueReadError, readCatalogue } from '../../match/catalogue.js';
import { UsageError } from '../../runtime/cli-errors.js';

export async function loadCatalogue(file: string, map: ColumnMap): Promise<Catalogue> {
  try {
    return await readCatalogue(file, map);
  } catch (err) {
    // The --map hint helps with columns only; a file we cannot read says what would help, if anything.
    if (err instanceof CatalogueReadError) throw new UsageError(err.message, err.hint);
    if (err instanceof CatalogueColumnsError) {
      throw new UsageError(err.message, 'name the columns with --map gtin=<col>,brand=<col>,model=<col>,name=<col>');
    }
    throw err;
  }
}
