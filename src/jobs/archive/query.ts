// Runs `query`: streams the archive's matching recalls, a batch at a time, through the chosen renderer.
import { counted } from '../../output/numbers.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import { RECALL_FIELDS } from '../../api/constants.js';
import type { QueryPlan } from './plans.js';
import type { ArchiveSession } from '../../runtime/session.js';
import { recallColumnKinds, TABLE_COLUMNS, TABLE_DROP_ORDER } from '../watch/record-sink.js';
import { inBatches } from '../../runtime/archive/archive-file.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';
import { columnWarnings } from '../../runtime/options/column-names.js';

/** `session`: with the output and the archive (read-only) the command declared. */
export async function runQuery(plan: QueryPlan, session: ArchiveSession): Promise<void> {
  const output = await session.output();
  const archive = session.store;
  let written = 0;
  await output.write(async (sink) => {
    const renderer = sink.renderer({
      columns: plan.columns,
      tableColumns: TABLE_COLUMNS,
      dropOrder: TABLE_DROP_ORDER,
      csvColumns: RECALL_FIELDS,
      columnKinds: await recallColumnKinds(output.format),
      formulaGuard: plan.formulaGuard,
      bom: plan.bom,
    });
    // As feed warns: --columns names no recall of the first batch has, or a format that prints whole records.
    const warnColumns = (first?: readonly Record<string, unknown>[]) => {
      for (const w of columnWarnings({ columns: plan.columns, format: output.format.name, records: first }))
        session.status.warn(w);
    };
    // jsonl and json print the text the archive holds as it is: no parsing only to serialize again.
    if (renderer.writeJson) {
      warnColumns();
      for await (const batch of inBatches(archive.recordTexts(plan.listing), session.ctx.signal)) {
        await renderer.writeJson(batch);
        written += batch.length;
      }
    } else {
      for await (const batch of inBatches(archive.records(plan.listing), session.ctx.signal)) {
        if (written === 0) warnColumns(batch);
        await renderer.write(batch);
        written += batch.length;
      }
    }
    await renderer.end();
  });
  for (const warning of await archiveFilterWarnings(archive, plan.listing)) session.status.warn(warning);
  const what = `${counted(written, 'recall', 'recalls')} from ${archive.name}`;
  // Into a file, the line every -o run ends with (wrote … to FILE); on a terminal's table, the count under it.
  if (output.toFile) announceWritten(session, what);
  else if (output.format.forPeople) session.status.note(what);
}
