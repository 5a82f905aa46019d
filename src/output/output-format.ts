// What an output format is: its names, extensions, kind, capabilities and lazily loaded renderer (types and one helper, no renderer code).
import type { Renderer, RenderOptions } from './render-contract.js';

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
  /** Read by a person (a table on a terminal, the digest's text): gets notes on stderr and rows in reading order. */
  forPeople: boolean;
  /** An empty run still prints a whole document (json's `[]`), on stdout too. */
  framed: boolean;
  /** Starts with a row of column names that a continued file (--append, --resume) keeps, read back as csv. */
  headerRow: boolean;
}

/**
 * What a format is for: `records`, a stream of records (feed, query...); `document`, only a whole document a
 * command renders itself (the digest's and report's Markdown, HTML and text); `status`, only status answers
 * (doctor's, health's: none shipped is only that). A records format also writes documents and status answers,
 * in the forms its `documentParts` name.
 */
export type FormatKind = 'records' | 'document' | 'status';

/**
 * The parts of a document or status answer a job may hand over (`OutputDocument`), each for some formats:
 * `text`, rendered by the document's own renderer for this format (digest, report); `people`, text for a
 * person; `whole`, one JSON value, indented; `one`, one JSON value on one line; `items`, JSON values one a
 * line; `rows`, records through the format's renderer.
 */
export type DocumentPart = 'text' | 'people' | 'whole' | 'one' | 'items' | 'rows';

/** The module a format's renderer lives in, loaded on first use. */
export interface FormatModule {
  createRenderer(opts: RenderOptions): Renderer;
}

export interface OutputFormat extends Readonly<FormatCapabilities> {
  /** What -f takes, and how help lists it. */
  readonly name: string;
  /** Other names -f takes for it (`md`), each meaning it only in a command that does not write a format by that name. */
  readonly aliases: readonly string[];
  /** One line for `recall-feed help formats`. */
  readonly summary: string;
  /** File extensions that pick the format for `-o` (lower case, with the dot). */
  readonly extensions: readonly string[];
  readonly kind: FormatKind;
  /** Which parts of an `OutputDocument` it prints, the first the document has. */
  readonly documentParts: readonly DocumentPart[];
  /** The record format when none was asked for: on a terminal, or in a pipe or file. At most one of each. */
  readonly defaultOn?: 'terminal' | 'pipe';
  /** Its record renderer; undefined for a document-only format. */
  readonly load?: () => Promise<FormatModule>;
}

type Capability = keyof FormatCapabilities;

export interface FormatDefinition {
  name: string;
  aliases?: readonly string[];
  summary: string;
  extensions: readonly string[];
  kind: FormatKind;
  /** The capabilities it has; the others are false. */
  can: readonly Capability[];
  documentParts: readonly DocumentPart[];
  defaultOn?: 'terminal' | 'pipe';
  load?: () => Promise<FormatModule>;
}

const CAPABILITIES: readonly Capability[] = [
  'streams',
  'appendable',
  'resumable',
  'needsFile',
  'binary',
  'wholeRecords',
  'headerWhenEmpty',
  'typedColumns',
  'forPeople',
  'framed',
  'headerRow',
];

/** A format from its definition: the capabilities named are true, the others false. */
export function defineFormat(def: FormatDefinition): OutputFormat {
  const { can, aliases = [], ...rest } = def;
  const caps = Object.fromEntries(CAPABILITIES.map((c) => [c, can.includes(c)])) as unknown as FormatCapabilities;
  return Object.freeze({ ...rest, aliases, ...caps });
}
