// `match --watch`: the feed's watch loop, writing (and acting on) match rows instead of records.
import type { Catalogue } from '../../match/catalogue.js';
import type { Context } from '../../runtime/context.js';
import type { Renderer } from '../../output/renderer.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { WatchPlan } from '../watch/plan.js';
import { withFeedRun } from '../watch/feed-run.js';
import { runWatch, type WatchOutput } from '../watch/watch.js';
import type { Session } from '../../runtime/session.js';
import { type DbChoice, writing } from '../../runtime/archive/archive-file.js';
import {
  caseOpener,
  casesLine,
  type CaseOpener,
  keyColumn,
  type OpenerOptions,
  sayRowKeys,
  streamedCaseOpener,
} from '../matching/open-cases.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { streamedPolls } from './watch-stream.js';
import {
  type IndexedCatalogue,
  indexedPolls,
  type PollMatcher,
  type PollRows,
  type WatchedFile,
} from './watch-polls.js';
import { caseSla, type Sla } from '../matching/sla.js';
import type { ArchiveStore } from '../../archive/index.js';
import type { Format } from '../../runtime/settings.js';
import { byLevelThenSeverity, matchColumns, matchTableColumns } from '../matching/match-rows.js';

/** `match --watch`: polls of the feed (planned from match's own flags as feed plans them), and how its rows are written. */
export interface MatchWatchPlan extends WatchPlan {
  format: Format;
  formulaGuard: boolean;
}

/** Every row of the poll, in order. */
async function allRows(polled: PollRows): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of polled.batches()) for (const row of batch) rows.push(row);
  return rows;
}

/** Match rows on stdout; each match or possible row is an action's item, its id `<recall_id>:<catalogue row>`. */
function matchOutput(
  matcher: PollMatcher,
  plan: MatchWatchPlan,
  ctx: Context,
  sink: RecordSink,
  cases?: { opener: CaseOpener; archive: ArchiveStore; note: (line: string) => void },
): WatchOutput {
  let renderer: Renderer | undefined;
  const open = (shape: PollRows['shape']) =>
    sink.renderer({
      tableColumns: matchTableColumns(shape),
      csvColumns: matchColumns(shape),
      formulaGuard: plan.formulaGuard,
      wholeHeaders: true,
    });
  /** The poll's rows written (a table's sorted), then its cases opened; nothing at all when it found none. */
  const write = async (polled: PollRows, held?: Record<string, unknown>[]) => {
    // A table lists each poll's matches first, then possibles, then excluded rows; other formats as found.
    const batches = held ? [sink.format.forPeople ? held.sort(byLevelThenSeverity) : held] : polled.batches();
    let wrote = false;
    for await (const rows of batches) {
      if (rows.length === 0) continue;
      renderer ??= open(polled.shape);
      await renderer.write(rows);
      wrote = true;
    }
    if (wrote && cases)
      cases.note(casesLine(await writing(cases.archive.name, () => cases.opener.flush(cases.archive, ctx.now()))));
  };
  return {
    async prepare(records, { items }) {
      const polled = await matcher.poll(records, cases && ((m, recall) => cases.opener.add(m, recall)));
      // Only a table (sorted) or actions (their items, queued before the rows are written) hold the poll's rows.
      if (!items && !sink.format.forPeople) return { items: [], write: () => write(polled), close: polled.close };
      const held = await allRows(polled);
      return {
        // Actions fire for matches and possibles only: an excluded row (out of the notice's lots and dates) is printed
        // as the proof nothing was over-pulled, but an alert for a product not affected is noise to its receiver.
        items: held
          .filter((row) => row.level !== 'excluded')
          .map((row) => ({ id: `${String(row.recall_id)}:${String(row.catalog_line)}`, record: row })),
        write: () => write(polled, held),
        close: polled.close,
      };
    },
    end: async () => renderer?.end(),
  };
}

/** What a watch checks each poll against: the catalogue indexed whole, or (8 MiB and over) its file, streamed. */
export type WatchCatalogue = WatchedFile &
  ({ kind: 'indexed'; start: IndexedCatalogue } | { kind: 'streamed'; head: Omit<Catalogue, 'rows'> });

/**
 * Polls like `feed --watch` (its files under the feed's run lock) and matches each new recall. `run`: with the output,
 * and with --open-cases the archive the cases go to (created when missing, as `sync` would), that matchUses() declared.
 */
export async function watchMatch(
  plan: MatchWatchPlan,
  source: WatchCatalogue,
  run: Session,
  openCases?: { key: string | undefined; db: DbChoice; levels?: readonly ('match' | 'possible')[]; sla?: Sla },
): Promise<void> {
  const { ctx } = run;
  const output = await run.output();
  const archive = run.store;
  return withFeedRun(plan, run, async (session) => {
    const { status } = session;
    // A catalogue held whole and replaced: its keys' warnings said as at the start (a streamed one says them as rows
    // find recalls).
    const keysOf = openCases && ((catalogue: Catalogue) => sayRowKeys(catalogue, openCases.key, status));
    const matcher =
      source.kind === 'indexed'
        ? indexedPolls(source.start, source, status, (held) => streamedPolls(source, status, ctx.signal, held), keysOf)
        : await streamedPolls(source, status, ctx.signal);
    const sla = openCases && (await caseSla(openCases.sla, session.settings.profileCaseSla));
    const opener = openCases && watchOpener(source, status, { ...openCases, sla });
    const note = (line: string) => status.note(line);
    const cases = opener && archive ? { opener, archive, note } : undefined;
    await output.write((sink) => runWatch(plan, session, ctx, matchOutput(matcher, plan, ctx, sink, cases)));
  });
}

/** The opener of a watch's cases: a streamed catalogue's keys are counted among the rows that found a recall. */
function watchOpener(
  source: WatchCatalogue,
  status: StatusReporter,
  opts: OpenerOptions & { key: string | undefined },
): CaseOpener {
  if (source.kind === 'indexed') return caseOpener(source.start.catalogue, opts.key, status, opts);
  return streamedCaseOpener(source.head, keyColumn(source.head, opts.key), status, opts);
}
