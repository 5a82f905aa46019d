// `match --watch`: the feed's watch loop, writing (and acting on) match rows instead of records.
import type { CatalogueIndex } from '../../match/matcher.js';
import type { Catalogue } from '../../match/catalogue.js';
import type { Context } from '../context.js';
import type { ColorLevel, Renderer } from '../../output/renderer.js';
import type { FeedPlan, FeedOptions } from '../feed/plan.js';
import { withFeedRun } from '../feed/run-feed.js';
import { runWatch, type WatchOutput, type WatchPlan } from '../feed/watch.js';
import type { GlobalFlags } from '../settings.js';
import { matchColumns, matchRow, matchTableColumns, reportRejected } from './match-rows.js';

/** Match rows on stdout; each row is an action's item, its id `<recall_id>:<catalogue row>`. */
function matchOutput(
  catalogue: Catalogue,
  index: CatalogueIndex,
  plan: FeedPlan,
  ctx: Context,
  width: number,
  color: ColorLevel,
  toTerminal: boolean,
): WatchOutput {
  let renderer: Renderer | undefined;
  const open = async () => {
    const { createRenderer } = await import('../../output/renderer.js');
    return createRenderer({
      format: plan.format,
      out: ctx.stdout,
      tableColumns: matchTableColumns(catalogue),
      csvColumns: matchColumns(catalogue),
      formulaGuard: plan.formulaGuard,
      width,
      color,
      toTerminal,
    });
  };
  return {
    prepare(records) {
      const rows = records.flatMap((recall) => index.match(recall).map((m) => matchRow(m, recall)));
      return {
        items: rows.map((row) => ({ id: `${String(row.recall_id)}:${String(row.catalog_line)}`, record: row })),
        async write() {
          if (rows.length === 0) return;
          renderer ??= await open();
          await renderer.write(rows);
        },
      };
    },
    end: async () => renderer?.end(),
  };
}

/**
 * Polls like `feed --watch` (its flags checked by the feed's own plan, its files under the feed's run lock)
 * and matches each new recall.
 */
export function watchMatch(
  watch: FeedOptions,
  catalogue: Catalogue,
  index: CatalogueIndex,
  globals: GlobalFlags,
  ctx: Context,
): Promise<void> {
  return withFeedRun(watch, globals, ctx, async (plan, session, terminal) => {
    reportRejected(index.rejected, session.status);
    const output = matchOutput(catalogue, index, plan, ctx, terminal.columns, terminal.color, terminal.stdoutIsTTY);
    await runWatch(plan as WatchPlan, session, ctx, output);
  });
}
