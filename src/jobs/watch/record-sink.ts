// Feeds pages of records to the renderer chosen for the run, creating it on the first records it sees; checks the csv header a run continues.
import { RECALL_FIELDS } from '../../api/constants.js';
import type { FormatCapabilities } from '../../output/format-registry.js';
import { formatSpec } from '../../output/formats.js';
import { columnWarnings } from '../../runtime/options/column-names.js';
import type { CsvHead } from '../../runtime/files/csv-header.js';
import type { OutputTarget } from '../../runtime/files/file-target.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { ApiSession } from '../../runtime/api-session.js';
import type { FeedPlan } from './plan.js';

/** The record schema's column types, for a format that types its columns (loaded only then: it loads zod). */
export async function recallColumnKinds(format: Pick<FormatCapabilities, 'typedColumns'>) {
  if (!format.typedColumns) return undefined;
  return (await import('../../api/column-kinds.js')).RECALL_COLUMN_KINDS;
}

/** The compact table a terminal gets by default: the id first, for `show <id> --history`. */
export const TABLE_COLUMNS = [
  'id',
  'published_at',
  'data_source',
  'risk_severity',
  'product_brand',
  'product_name',
  'alert_title',
];
/** What a narrow terminal leaves out of TABLE_COLUMNS first: the id, date, title and brand stay longest. */
export const TABLE_DROP_ORDER = ['data_source', 'product_name', 'risk_severity', 'product_brand', 'published_at'];

export interface PageSink {
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

export interface PageSinkOptions {
  plan: FeedPlan;
  session: Pick<ApiSession, 'settings' | 'status'>;
  /** The run's output, open: its target, and renderers of the run's format on it. */
  sink: RecordSink;
  /** The head of the csv file continued, as continuedCsv() read and checked it before any request. */
  head?: CsvHead | undefined;
}

/** The columns a record of the plan will have, when known before the first page; and whether rows need the id. */
function headerNeeds(plan: FeedPlan, first?: readonly Record<string, unknown>[]) {
  const custom = plan.custom !== undefined;
  const fromRecords = first && first.length > 0 ? [...new Set(first.flatMap((r) => Object.keys(r)))] : undefined;
  return {
    columns: plan.columns ?? (custom ? fromRecords : RECALL_FIELDS),
    // A custom feed's records may have no id; with --state they must, and so must the rows.
    id: plan.columns ? plan.columns.includes('id') : !custom || plan.state !== undefined,
  };
}

/**
 * The header and line end of the csv file this run continues (appending, resuming), checked before any
 * request: a header that shares no column with the records, or lacks the id, is refused (exit 2).
 * Undefined when nothing is continued.
 */
export async function continuedCsv(plan: FeedPlan, target: OutputTarget, shown: string): Promise<CsvHead | undefined> {
  if (!formatSpec(plan.format).headerRow || target.headerSource === undefined) return undefined;
  const { checkHeaderFits, readCsvHead } = await import('../../runtime/files/csv-header.js');
  // stdout sent onto a file with >> (stdoutTarget) has no name of its own here.
  const name = target.kind === 'stdout' ? 'the file stdout goes to' : shown;
  const head = await readCsvHead(target.headerSource, name);
  if (head) checkHeaderFits(name, head.header, headerNeeds(plan));
  return head;
}

/**
 * A custom feed's columns come from its records, so the renderer waits for the first page. Headers
 * (csv, table) and the BOM go only into output that starts empty; a resumed json array continues; csv
 * added to an existing file follows that file's header.
 */
export function createRecordSink({ plan, session, sink, head }: PageSinkOptions): PageSink {
  const { format } = sink;
  const { target } = sink;
  type Renderer = Awaited<ReturnType<typeof create>>;
  let renderer: Renderer | undefined;
  async function create(first: readonly Record<string, unknown>[]) {
    const custom = plan.custom !== undefined;
    const fromRecords = Object.keys(first[0] ?? {});
    for (const w of columnWarnings({ columns: plan.columns, format: format.name, records: first }))
      session.status.warn(w);
    const existingHeader = head?.header;
    // A custom feed's columns are known now: its rows must share a column with the file, or none is written.
    if (existingHeader && custom && first.length > 0) {
      const { checkHeaderFits } = await import('../../runtime/files/csv-header.js');
      checkHeaderFits(session.settings.output ?? '', existingHeader, headerNeeds(plan, first));
    }
    return sink.renderer({
      columns: plan.columns,
      tableColumns: custom ? fromRecords.slice(0, 6) : TABLE_COLUMNS,
      ...(custom ? {} : { dropOrder: TABLE_DROP_ORDER }),
      csvColumns: custom ? undefined : RECALL_FIELDS,
      columnKinds: custom ? undefined : await recallColumnKinds(format),
      formulaGuard: plan.formulaGuard,
      bom: plan.bom && target.startsEmpty,
      // Only csv continues a file's header; a table added to a file (>>) is a table of its own.
      header: target.startsEmpty || !format.headerRow,
      existingHeader,
      lineEnd: head?.lineEnd,
      onDroppedFields: (fields) => {
        const where = existingHeader ? 'the header of the file' : 'the csv columns';
        session.status.warn(`${where} has no column for ${fields.join(', ')}; left out`);
      },
      resumeCount: target.resumed?.count,
    });
  }
  return {
    async write(records) {
      if (records.length === 0) return;
      renderer ??= await create(records);
      await renderer.write(records);
    },
    async end() {
      // An empty json run still prints a valid document, and an empty csv or parquet file gets its header
      // (on stdout, nothing new is silence: a cron job's mail stays empty).
      const framed = format.framed || (format.headerWhenEmpty && target.kind === 'file');
      if (!renderer && framed) renderer = await create([]);
      await renderer?.end();
    },
  };
}
