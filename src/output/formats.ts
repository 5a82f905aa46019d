// The format registry: each record format's name, file extensions and capabilities. Dependency-free, so config
// validation, completion and help can list the formats without loading a renderer.

/** What a format can do; callers check these, never a format's name. */
export interface FormatCapabilities {
  /** Each page is written as it arrives (memory stays flat); otherwise records are held until a row group is full. */
  streams: boolean;
  /** `--append` can add records to an existing file. */
  appendable: boolean;
  /** `--resume` can continue a partial file after a failed run (the ids it holds are read back). */
  resumable: boolean;
  /** Only into a file (`-o`): never stdout. */
  needsFile: boolean;
  /** Bytes for programs, not text: never shown on a terminal. */
  binary: boolean;
  /** Prints whole records: `--columns` does not apply. */
  wholeRecords: boolean;
  /** An empty export into a file still gets the format's header (csv) or schema (parquet). */
  headerWhenEmpty: boolean;
  /** Columns have types (RenderOptions.columnKinds, from the record schema, which loads zod: only then). */
  typedColumns: boolean;
}

export interface FormatSpec extends FormatCapabilities {
  /** One line for `recall-feed help formats`. */
  summary: string;
  /** File extensions that pick the format for `-o` (lower case, with the dot). */
  extensions: readonly string[];
}

type Capability = keyof FormatCapabilities;

/** A format's spec: the capabilities named are true, the others false. */
function spec(summary: string, extensions: readonly string[], can: readonly Capability[]): FormatSpec {
  const has = (c: Capability) => can.includes(c);
  return {
    summary,
    extensions,
    streams: has('streams'),
    appendable: has('appendable'),
    resumable: has('resumable'),
    needsFile: has('needsFile'),
    binary: has('binary'),
    wholeRecords: has('wholeRecords'),
    headerWhenEmpty: has('headerWhenEmpty'),
    typedColumns: has('typedColumns'),
  };
}

/** Every record format, in the order help lists them. A new format is one line here and one in renderer.ts. */
export const FORMAT_SPECS = {
  table: spec('a table fitted to the terminal, for people (may change)', [], ['streams']),
  jsonl: spec(
    'one JSON object per line, as the API sent it',
    ['.jsonl', '.ndjson'],
    ['streams', 'appendable', 'resumable', 'wholeRecords'],
  ),
  json: spec('one JSON array, one record per line', ['.json'], ['streams', 'resumable', 'wholeRecords']),
  csv: spec(
    'RFC 4180, a header row, lists joined with "; "',
    ['.csv'],
    ['streams', 'appendable', 'resumable', 'headerWhenEmpty'],
  ),
  parquet: spec(
    'Apache Parquet, typed columns',
    ['.parquet'],
    ['needsFile', 'binary', 'headerWhenEmpty', 'typedColumns'],
  ),
} satisfies Record<string, FormatSpec>;

export type Format = keyof typeof FORMAT_SPECS;

export const FORMATS = Object.keys(FORMAT_SPECS) as readonly Format[];

export function isFormat(value: string): value is Format {
  return Object.hasOwn(FORMAT_SPECS, value);
}

/** A format's capabilities and description. */
export function formatSpec(format: Format): FormatSpec {
  return FORMAT_SPECS[format];
}

/** The format a file extension (`.csv`, with the dot, any case) asks for; undefined for none. */
export function formatOfExtension(ext: string): Format | undefined {
  const lower = ext.toLowerCase();
  return FORMATS.find((f) => (FORMAT_SPECS[f].extensions as readonly string[]).includes(lower));
}
