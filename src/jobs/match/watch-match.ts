// `match --watch`: the feed's watch loop, writing (and acting on) match rows instead of records.
import type { CatalogueIndex } from '../../match/matcher.js';
import type { Catalogue } from '../../match/catalogue.js';
import type { Context } from '../../runtime/context.js';
import type { Renderer } from '../../output/renderer.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { WatchPlan } from '../watch/plan.js';
import { withFeedRun } from '../watch/feed-run.js';
import { runWatch, type WatchOutput } from '../watch/watch.js';
import type { Session } from '../../runtime/session.js';
import { type DbChoice, writing } from '../../runtime/archive/archive-file.js';
import { caseOpener, casesLine, type CaseOpener } from '../matching/open-cases.js';
import { caseSla, type Sla } from '../matching/sla.js';
import type { ArchiveStore } from '../../archive/index.js';
import type { Format } from '../../runtime/settings.js';
import {
  byLevelThenSeverity,
  matchColumns,
  matchRow,
  matchTableColumns,
  reportCatalogue,
} from '../matching/match-rows.js';

/** `match --watch`: polls of the feed (planned from match's own flags as feed plans them), and how its rows are written. */
export interface MatchWatchPlan extends WatchPlan {
  format: Format;
  formulaGuard: boolean;
}

/** Match rows on stdout; each match or possible row is an action's item, its id `<recall_id>:<catalogue row>`. */
function matchOutput(
  catalogue: Catalogue,
  index: CatalogueIndex,
  plan: MatchWatchPlan,
  ctx: Context,
  sink: RecordSink,
  cases?: { opener: CaseOpener; archive: ArchiveStore; note: (line: string) => void },
): WatchOutput {
  let renderer: Renderer | undefined;
  const open = () =>
    sink.renderer({
      tableColumns: matchTableColumns(catalogue),
      csvColumns: matchColumns(catalogue),
      formulaGuard: plan.formulaGuard,
      wholeHeaders: true,
    });
  return {
    prepare(records) {
      const rows = records.flatMap((recall) =>
        index.match(recall).map((m) => {
          if (m.level !== 'excluded') cases?.opener.add(m, recall);
          return matchRow(m, recall);
        }),
      );
      return {
        // Actions fire for matches and possibles only: an excluded row (out of the notice's lots and dates) is printed
        // as the proof nothing was over-pulled, but an alert for a product not affected is noise to its receiver.
        items: rows
          .filter((row) => row.level !== 'excluded')
          .map((row) => ({ id: `${String(row.recall_id)}:${String(row.catalog_line)}`, record: row })),
        async write() {
          if (rows.length === 0) return;
          renderer ??= open();
          // A table lists each poll's matches first, then possibles, then excluded rows; other formats as found.
          await renderer.write(sink.format.forPeople ? [...rows].sort(byLevelThenSeverity) : rows);
          if (cases)
            cases.note(
              casesLine(await writing(cases.archive.name, () => cases.opener.flush(cases.archive, ctx.now()))),
            );
        },
      };
    },
    end: async () => renderer?.end(),
  };
}

/**
 * Polls like `feed --watch` (its files under the feed's run lock) and matches each new recall. `run`: with the output,
 * and with --open-cases the archive the cases go to (created when missing, as `sync` would), that matchUses() declared.
 */
export async function watchMatch(
  plan: MatchWatchPlan,
  catalogue: Catalogue,
  index: CatalogueIndex,
  run: Session,
  openCases?: { key: string | undefined; db: DbChoice; levels?: readonly ('match' | 'possible')[]; sla?: Sla },
): Promise<void> {
  const { ctx } = run;
  const output = await run.output();
  const archive = run.store;
  return withFeedRun(plan, run, async (session) => {
    reportCatalogue(catalogue, index.rejected, session.status);
    const sla = openCases && (await caseSla(openCases.sla, session.settings.profileCaseSla));
    const opener = openCases && caseOpener(catalogue, openCases.key, session.status, { ...openCases, sla });
    const note = (line: string) => session.status.note(line);
    const cases = opener && archive ? { opener, archive, note } : undefined;
    await output.write((sink) => runWatch(plan, session, ctx, matchOutput(catalogue, index, plan, ctx, sink, cases)));
  });
}
