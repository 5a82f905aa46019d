// `match --watch`: the feed's watch loop, writing (and acting on) match rows instead of records.
import type { CatalogueIndex } from '../../match/matcher.js';
import type { Catalogue } from '../../match/catalogue.js';
import type { Context } from '../context.js';
import type { FeedPlan, FeedOptions } from '../feed/plan.js';
import { planFeed } from '../feed/plan.js';
import { runWatch, type WatchOutput, type WatchPlan } from '../feed/watch.js';
import { openSession, loadSettings } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import { detectTerminal } from '../terminal/terminal.js';
import { matchColumns, matchRow, matchTableColumns, reportRejected } from './match-rows.js';

type Renderer = Awaited<ReturnType<typeof import('../../output/renderer.js')['createRenderer']>>;

/** Match rows on stdout; each row is an action's item, its id `<recall_id>:<catalogue row>`. */
function matchOutput(
  catalogue: Catalogue,
  index: CatalogueIndex,
  plan: FeedPlan,
  ctx: Context,
  width: number,
  color: boolean,
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

/** Polls like `feed --watch` (its flags checked by the feed's own plan) and matches each new recall. */
export async function watchMatch(
  watch: FeedOptions,
  catalogue: Catalogue,
  index: CatalogueIndex,
  globals: GlobalFlags,
  ctx: Context,
): Promise<void> {
  const settings = await loadSettings(globals, ctx);
  const terminal = detectTerminal(ctx, globals.color);
  const plan = planFeed(watch, settings, terminal) as WatchPlan;
  const session = await openSession(globals, ctx, { needsKey: true, settings });
  try {
    reportRejected(index.rejected, session.status);
    await runWatch(plan, session, ctx, matchOutput(catalogue, index, plan, ctx, terminal.columns, terminal.color));
  } finally {
    await session.close();
  }
}
