// Feeds pages of records to the renderer chosen for the run, creating it on the first records it sees.
import { RECALL_FIELDS } from '../../api/constants.js';
import { columnWarnings } from '../options/column-names.js';
import type { OutputTarget } from '../files/file-target.js';
import type { Session } from '../session.js';
import type { Format } from '../settings.js';
import type { FeedPlan } from './plan.js';

/** The compact table a terminal gets by default. */
export const TABLE_COLUMNS = [
  'published_at',
  'data_source',
  'risk_severity',
  'product_brand',
  'product_name',
  'alert_title',
];

export interface PageSink {
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  end(): Promise<void>;
}

export interface PageSinkOptions {
  plan: FeedPlan;
  session: Session;
  target: OutputTarget;
}

/**
 * A custom feed's columns come from its records, so the renderer waits for the first page. Headers
 * (csv, table) and the BOM go only into output that starts empty; a resumed json array continues; csv
 * added to an existing file follows that file's header.
 */
export function createRecordSink({ plan, session, target }: PageSinkOptions): PageSink {
  const { format } = plan;
  type Renderer = Awaited<ReturnType<typeof create>>;
  let renderer: Renderer | undefined;
  async function create(first: readonly Record<string, unknown>[]) {
    const { createRenderer } = await import('../../output/renderer.js');
    const custom = plan.custom !== undefined;
    const fromRecords = Object.keys(first[0] ?? {});
    for (const w of columnWarnings({ columns: plan.columns, format, records: custom ? first : undefined }))
      session.status.warn(w);
    const existingHeader = await csvHeaderOf(format, target);
    return createRenderer({
      format,
      out: target.stream,
      columns: plan.columns,
      tableColumns: custom ? fromRecords.slice(0, 6) : TABLE_COLUMNS,
      csvColumns: custom ? undefined : RECALL_FIELDS,
      formulaGuard: plan.formulaGuard,
      bom: plan.bom && target.startsEmpty,
      header: target.startsEmpty,
      existingHeader,
      onDroppedFields: (fields) => {
        const where = existingHeader ? 'the header of the file' : 'the csv columns';
        session.status.warn(`${where} has no column for ${fields.join(', ')}; left out`);
      },
      width: session.terminal.columns,
      color: session.terminal.color,
      toTerminal: target.kind === 'stdout' && session.terminal.stdoutIsTTY,
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
      // An empty json run still prints a valid document, and an empty csv file gets its header (on
      // stdout, nothing new is silence: a cron job's mail stays empty).
      if (!renderer && (format === 'json' || (format === 'csv' && target.kind === 'file'))) renderer = await create([]);
      await renderer?.end();
    },
  };
}

/** The header a csv output continues: that of the file appended to, or of the partial resumed. */
async function csvHeaderOf(format: Format, target: OutputTarget): Promise<string[] | undefined> {
  if (format !== 'csv' || target.headerSource === undefined) return undefined;
  const { readCsvHeader } = await import('../files/csv-header.js');
  return readCsvHeader(target.headerSource);
}
