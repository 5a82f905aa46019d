// Runs `query`: streams the archive's matching recalls, a batch at a time, through the chosen renderer.
import { groupDigits } from '../../output/numbers.js';
import { RECALL_FIELDS } from '../../api/constants.js';
import type { QueryPlan } from './plans.js';
import type { Context } from '../../runtime/context.js';
import { chooseFormat, openTarget, reachesTerminal } from '../../runtime/files/output-target.js';
import { writeOutput } from '../../runtime/files/write-output.js';
import { recallColumnKinds, TABLE_COLUMNS } from '../watch/record-sink.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { inBatches } from '../../runtime/archive/archive-file.js';
import { openLocal, readArchive } from '../../runtime/archive/local-session.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';

export async function runQuery(plan: QueryPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const local = await openLocal(globals, ctx, plan.db);
  const format = chooseFormat(local.settings, local.terminal);
  const archive = await readArchive(local);
  let written = 0;
  try {
    await writeOutput(
      () => openTarget(local.settings, ctx),
      async (target) => {
        const { createRenderer } = await import('../../output/renderer.js');
        const renderer = createRenderer({
          format,
          out: target.stream,
          columns: plan.columns,
          tableColumns: TABLE_COLUMNS,
          csvColumns: RECALL_FIELDS,
          columnKinds: await recallColumnKinds(format),
          formulaGuard: plan.formulaGuard,
          bom: plan.bom,
          width: local.terminal.columns,
          color: local.terminal.color,
          toTerminal: reachesTerminal(target, local.terminal),
        });
        // jsonl and json print the text the archive holds as it is: no parsing only to serialize again.
        if (renderer.writeJson) {
          for await (const batch of inBatches(archive.recordTexts(plan.listing), ctx.signal)) {
            await renderer.writeJson(batch);
            written += batch.length;
          }
        } else {
          for await (const batch of inBatches(archive.records(plan.listing), ctx.signal)) {
            await renderer.write(batch);
            written += batch.length;
          }
        }
        await renderer.end();
      },
    );
    for (const warning of await archiveFilterWarnings(archive, plan.listing)) local.status.warn(warning);
  } finally {
    await archive.close();
  }
  if (format === 'table') local.status.note(`${groupDigits(written)} recalls from ${local.archive.name}`);
}
