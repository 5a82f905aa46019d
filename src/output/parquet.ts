// Parquet renderer: typed columns (integers, UTC timestamps, lists of strings, nested values as JSON text), one row group per 10,000 records.
import type { Writable } from 'node:stream';
import { writeChunk } from './backpressure.js';
import type { ColumnKind, Renderer, RenderOptions } from './render-contract.js';

type ParquetWriterModule = typeof import('hyparquet-writer');
type SchemaElement = ConstructorParameters<ParquetWriterModule['ParquetWriter']>[0]['schema'][number];

/** Records per row group: big enough for good compression, small enough to bound memory (about 20 MB of recalls). */
export const ROW_GROUP_RECORDS = 10_000;

/**
 * A value that does not fit its column's type (the record schema's, which the API's answer broke): the file is not
 * committed, nothing is lost; never dropped or guessed.
 */
export class ParquetValueError extends Error {
  override name = 'ParquetValueError';
}

/**
 * ISO 8601 in the forms src/api/timestamps.ts reads (a date alone; `hh:mm`; seconds with a fraction; `Z`, `+hh:mm`
 * or `+hhmm`), and those it leaves out: a comma before the fraction, an offset of hours alone (`+05`), and RFC 3339's
 * lower-case `t` and `z`. The output layer imports nothing outside itself, so a test checks the two agree.
 */
const ISO = /^(\d{4}-\d{2}-\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** Date.parse rolls 2026-02-30 over into March: a day the month does not have is no date, not a guess. */
function isCalendarDate(date: string): boolean {
  return new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
}

/** `Z`, or an offset as `+hh:mm`, which Date.parse reads. */
function zoneText(zone: string): string {
  if (zone === 'Z' || zone === 'z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}

/** Microseconds since the epoch of an ISO 8601 timestamp (no offset: UTC; a date alone: its midnight); undefined when it is not one. */
function timestampMicros(text: string): bigint | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, date, hh = '00', mm = '00', ss = '00', frac = '', zone = 'Z'] = m;
  const ms = Date.parse(`${date}T${hh}:${mm}:${ss}${zoneText(zone)}`);
  if (Number.isNaN(ms) || !isCalendarDate(date as string)) return undefined;
  return BigInt(ms) * 1000n + BigInt(`${frac}000000`.slice(0, 6));
}

function schemaOf(name: string, kind: ColumnKind): SchemaElement[] {
  const optional = 'OPTIONAL' as const;
  switch (kind) {
    case 'integer':
      return [{ name, type: 'INT64', repetition_type: optional }];
    case 'timestamp':
      return [{ name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', repetition_type: optional }];
    case 'strings':
      // The standard three-level list, which pandas, DuckDB and Spark read as a list of strings.
      return [
        { name, repetition_type: optional, converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional },
      ];
    case 'json':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: optional }];
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional }];
  }
}

/** A record's value as its column's type takes it; throws ParquetValueError rather than guess. */
function cell(kind: ColumnKind, value: unknown, column: string, record: Record<string, unknown>): unknown {
  if (value === null || value === undefined) return null;
  const refuse = (what: string) =>
    new ParquetValueError(
      `parquet: column ${column} of record ${String(record.id ?? '?')} holds ${JSON.stringify(value).slice(0, 60)}, not ${what}`,
    );
  switch (kind) {
    case 'integer':
      if (!Number.isSafeInteger(value)) throw refuse('a whole number');
      return BigInt(value as number);
    case 'timestamp': {
      const micros = typeof value === 'string' ? timestampMicros(value) : undefined;
      if (micros === undefined) throw refuse('an ISO 8601 timestamp');
      return micros;
    }
    case 'strings':
      // The list's element is optional: a null element stays a null element.
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' || v === null)) {
        throw refuse('a list of strings');
      }
      return value;
    case 'json':
      return value;
    case 'string':
      // Text stays text; anything else keeps its value as JSON text.
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

export class ParquetRenderer implements Renderer {
  readonly #opts: RenderOptions;
  readonly #out: Writable;
  #pending: Record<string, unknown>[] = [];
  #columns: { name: string; kind: ColumnKind }[] | undefined;
  #writer: InstanceType<ParquetWriterModule['ParquetWriter']> | undefined;
  #bytes: InstanceType<ParquetWriterModule['ByteWriter']> | undefined;
  #dropped = new Set<string>();
  #count = 0;
  #ended = false;

  constructor(opts: RenderOptions) {
    this.#opts = opts;
    this.#out = opts.out;
  }

  get count(): number {
    return this.#count;
  }

  async write(records: readonly Record<string, unknown>[]): Promise<void> {
    if (this.#ended) throw new Error('write() after end()');
    this.#pending.push(...records);
    this.#count += records.length;
    if (this.#pending.length >= ROW_GROUP_RECORDS) await this.#flushGroup();
  }

  async end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.#flushGroup();
    await this.#start([]);
    this.#writer?.finish();
    await this.#drain();
  }

  /** The columns (the user's, else the base order and then the first records' other fields) and the writer. */
  async #start(first: readonly Record<string, unknown>[]): Promise<void> {
    if (this.#writer) return;
    const { columns, csvColumns, columnKinds = {} } = this.#opts;
    const seen = [...new Set(first.flatMap((r) => Object.keys(r)))];
    // Once each: two columns of one name make a schema readers collapse (the CLI refuses a repeated --columns name).
    const names = [...new Set(columns ?? [...(csvColumns ?? []), ...seen])];
    // A column the schema does not type is text (other values as JSON text): a later record can never break it.
    this.#columns = names.map((name) => ({
      name,
      kind: (Object.hasOwn(columnKinds, name) ? columnKinds[name] : undefined) ?? 'string',
    }));
    const { ByteWriter, ParquetWriter } = await import('hyparquet-writer');
    const schema: SchemaElement[] = [{ name: 'root', num_children: names.length }];
    for (const c of this.#columns) schema.push(...schemaOf(c.name, c.kind));
    this.#bytes = new ByteWriter();
    this.#writer = new ParquetWriter({ writer: this.#bytes, schema, createdBy: 'recall-feed' });
  }

  async #flushGroup(): Promise<void> {
    const group = this.#pending;
    if (group.length === 0) return;
    this.#pending = [];
    await this.#start(group);
    const columns = this.#columns ?? [];
    if (this.#opts.columns === undefined) this.#warnDropped(group, columns);
    const columnData = columns.map(({ name, kind }) => ({
      name,
      data: group.map((record) => cell(kind, Object.hasOwn(record, name) ? record[name] : undefined, name, record)),
    }));
    await this.#writer?.write({ columnData, rowGroupSize: group.length });
    await this.#drain();
  }

  /** Fields of later records that the columns, fixed by the first, leave out: told once each, as csv does. */
  #warnDropped(group: readonly Record<string, unknown>[], columns: readonly { name: string }[]): void {
    const known = new Set(columns.map((c) => c.name));
    const fresh = [...new Set(group.flatMap((r) => Object.keys(r)))].filter(
      (f) => !known.has(f) && !this.#dropped.has(f),
    );
    for (const f of fresh) this.#dropped.add(f);
    if (fresh.length > 0) this.#opts.onDroppedFields?.(fresh);
  }

  /** Hands what the writer has encoded to the output (with backpressure) and empties its buffer. */
  async #drain(): Promise<void> {
    const bytes = this.#bytes;
    if (!bytes || bytes.index === 0) return;
    const chunk = new Uint8Array(bytes.getBytes());
    bytes.index = 0;
    await writeChunk(this.#out, chunk);
  }
}
