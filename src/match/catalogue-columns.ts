// Which catalogue columns hold the barcode, brand, model and name: found by common names or mapped by the user.
import { fold } from '../filters/normalize.js';

export const ROLES = ['gtin', 'brand', 'model', 'name', 'lot', 'best_before'] as const;
export type Role = (typeof ROLES)[number];
export type ColumnMap = Partial<Record<Role, string>> & {
  /** More barcode columns, read beside the first when none was mapped (`gtin` and `ean`, `EAN` and `ean`). */
  gtinAlso?: string[];
  /** More lot columns (`lot` and `batch`), read beside the first when none was mapped: the row is each of their lots. */
  lotAlso?: string[];
  /** More date columns (`ddm` and `dlc`), read beside the first when none was mapped: each is a reading of the row. */
  best_beforeAlso?: string[];
};

/** The roles that read every column of their names (unless one was mapped): a row is out only if all of them are. */
const MANY = { gtin: 'gtinAlso', lot: 'lotAlso', best_before: 'best_beforeAlso' } as const;
type ManyRole = keyof typeof MANY;

/** Every header a role reads: its first, then the others of its names (`ean` beside `gtin`, `dlc` beside `ddm`). */
export function roleHeaders(columns: ColumnMap, role: ManyRole): string[] {
  const first = columns[role];
  return first === undefined ? [] : [first, ...(columns[MANY[role]] ?? [])];
}

/** Header names recognised for each role, compared without case, accents, spaces or punctuation. */
const KNOWN: Record<Role, string[]> = {
  gtin: ['gtin', 'ean', 'upc', 'barcode', 'ean13', 'gtin13', 'gtin14', 'upca', 'codebarre', 'codeean'],
  brand: ['brand', 'marque', 'manufacturer', 'brandname'],
  model: ['model', 'mpn', 'modelnumber', 'modelno', 'reference', 'ref', 'modele'],
  name: ['name', 'title', 'productname', 'producttitle', 'designation', 'libelle', 'nom'],
  // Optional: what narrows a product to a batch, checked against the lots and dates a notice names.
  lot: ['lot', 'batch', 'lotnumber', 'batchnumber', 'numerolot', 'charge'],
  // Not a bare "date": a listing's or a delivery's date says nothing of the pack, yet would prove rows out of scope.
  best_before: ['bestbefore', 'bbd', 'ddm', 'dlc', 'dluo', 'expiry', 'useby', 'expirydate', 'mhd'],
};

function headerKey(header: string): string {
  return fold(header).replace(/[^\p{L}\p{N}]+/gu, '');
}

export class CatalogueColumnsError extends Error {
  override name = 'CatalogueColumnsError';
}

/** `gtin=EAN13,brand=Marque`: the user's mapping of roles to header names. */
export function parseColumnMap(raw: string): ColumnMap {
  const map: ColumnMap = {};
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    const role = part.slice(0, eq).trim().toLowerCase();
    const header = part.slice(eq + 1).trim();
    if (eq < 0 || header === '' || !(ROLES as readonly string[]).includes(role)) {
      throw new CatalogueColumnsError(
        `--map must look like gtin=EAN13,brand=Marque (roles: ${ROLES.join(', ')}), not '${raw}'`,
      );
    }
    map[role as Role] = header;
  }
  return map;
}

/**
 * The blank-named header cells a column map reads (`--map lot='column 5'`): the rows' cells count them as named, so a
 * value there is no shifted cell.
 */
export function mappedBlanks(header: readonly string[], columns: ColumnMap | undefined): number[] {
  const read = new Set(ROLES.flatMap((role) => (columns?.[role] === undefined ? [] : [headerKey(columns[role])])));
  return header.flatMap((h, k) => (h === '' && read.has(headerKey(`column ${k + 1}`)) ? [k] : []));
}

/**
 * The header each role reads from: the user's mapping first (its header must exist), else the first
 * header with a known name. At least one of barcode, model or brand+name must be found.
 */
export function resolveColumns(headers: readonly string[], mapped: ColumnMap): ColumnMap {
  const byKey = new Map<string, string>();
  for (const h of headers) if (!byKey.has(headerKey(h))) byKey.set(headerKey(h), h);
  const out: ColumnMap = {};
  for (const role of ROLES) {
    const wanted = mapped[role];
    if (wanted !== undefined) {
      const found = headers.includes(wanted) ? wanted : byKey.get(headerKey(wanted));
      if (found === undefined) {
        throw new CatalogueColumnsError(
          `the catalogue has no column '${wanted}' (--map ${role}=${wanted}); its columns: ${headers.join(', ')}`,
        );
      }
      out[role] = found;
      continue;
    }
    const known = KNOWN[role].map((k) => byKey.get(k)).find((h) => h !== undefined);
    if (known !== undefined) out[role] = known;
  }
  // Each barcode, lot and date column is read (a row may fill one and leave the other, and a second date column may
  // hold the date a notice names), unless the user named the one to read.
  const used = new Set(ROLES.map((r) => out[r]));
  for (const role of Object.keys(MANY) as ManyRole[]) {
    if (mapped[role] !== undefined || out[role] === undefined) continue;
    const also = headers.filter((h) => !used.has(h) && KNOWN[role].includes(headerKey(h)));
    for (const h of also) used.add(h);
    if (also.length > 0) out[MANY[role]] = also;
  }
  if (out.gtin === undefined && out.model === undefined && (out.brand === undefined || out.name === undefined)) {
    // The first 20 names: a file of thousands of columns (a wide export, a hostile file) gets one line, not a page.
    const shown =
      headers.length > 20 ? `${headers.slice(0, 20).join(', ')} and ${headers.length - 20} more` : headers.join(', ');
    throw new CatalogueColumnsError(`found no barcode, model or brand and name column among: ${shown}`);
  }
  return out;
}

/**
 * The headers a role could have read and does not (a second brand or name column, or a second barcode, lot or date
 * column beside the one `--map` names): each with the role and the header it reads. The user is told of them.
 */
export function unreadColumns(
  headers: readonly string[],
  columns: ColumnMap,
): Array<{ role: Role; header: string; read: string }> {
  const out: Array<{ role: Role; header: string; read: string }> = [];
  const used = new Set([
    ...ROLES.map((r) => columns[r]),
    ...Object.values(MANY).flatMap((also) => columns[also] ?? []),
  ]);
  for (const role of ROLES) {
    const read = columns[role];
    if (read === undefined) continue;
    for (const header of headers)
      if (!used.has(header) && KNOWN[role].includes(headerKey(header))) out.push({ role, header, read });
  }
  return out;
}
