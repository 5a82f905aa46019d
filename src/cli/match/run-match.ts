// Runs `match`: reads and indexes the catalogue, pages through the live window, writes one row per match.
import { compileFilter, type RecordFilter } from '../../filters/record-filter.js';
import { CatalogueColumnsError, type ColumnMap } from '../../match/catalogue-columns.js';
import { CatalogueReadError, readCatalogue, type Catalogue } from '../../match/catalogue.js';
import { CatalogueIndex, type RejectedCode } from '../../match/matcher.js';
import type { Context } from '../context.js';
import { MatchesFoundError, UsageError } from '../errors.js';
import { chooseFormat, openTarget } from '../files/output-target.js';
import { openSession } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import { matchColumns, matchRow, matchTableColumns } from './match-rows.js';

export interface MatchPlan {
  catalog: string;
  map: ColumnMap;
  sources: string[] | undefined;
  hours: number | undefined;
  filter: RecordFilter;
  exitCode: boolean;
  formulaGuard: boolean;
  bom: boolean;
}

/** Rejected codes listed one per line up to here; the rest are counted. */
const MAX_REJECTED_LINES = 20;
const n = (v: number) => v.toLocaleString('en-US');
const count = (v: number, one: string, many: string) => `${n(v)} ${v === 1 ? one : many}`;

/** The catalogue, read before any request: a bad file is a usage error that costs no quota. */
async function loadCatalogue(plan: MatchPlan): Promise<Catalogue> {
  try {
    return await readCatalogue(plan.catalog, plan.map);
  } catch (err) {
    if (err instanceof CatalogueReadError || err instanceof CatalogueColumnsError) {
      throw new UsageError(err.message, 'name the columns with --map gtin=<col>,brand=<col>,model=<col>,name=<col>');
    }
    throw err;
  }
}

function reportRejected(rejected: readonly RejectedCode[], write: (line: string) => void): void {
  for (const r of rejected.slice(0, MAX_REJECTED_LINES)) {
    write(`recall-feed: catalogue row ${r.line}: barcode '${r.value}' rejected (${r.reason}); it is never matched`);
  }
  if (rejected.length > MAX_REJECTED_LINES) write(`recall-feed: … and ${n(rejected.length - MAX_REJECTED_LINES)} more rejected barcodes`);
}

export async function runMatch(plan: MatchPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const catalogue = await loadCatalogue(plan);
  const index = new CatalogueIndex(catalogue);
  const keep = compileFilter(plan.filter);
  const session = await openSession(globals, ctx, { needsKey: true });
  const counts = { fetched: 0, checked: 0, match: 0, possible: 0 };
  try {
    reportRejected(index.rejected, (line) => session.status.note(line));
    const format = chooseFormat(session.settings, session.terminal);
    const target = await openTarget(session.settings, ctx);
    const { createRenderer } = await import('../../output/renderer.js');
    const renderer = createRenderer({
      format,
      out: target.stream,
      tableColumns: matchTableColumns(catalogue),
      csvColumns: matchColumns(catalogue),
      formulaGuard: plan.formulaGuard,
      bom: plan.bom && target.startsEmpty,
      header: target.startsEmpty,
      width: session.terminal.columns,
      color: session.terminal.color,
    });
    await session.status.start('matching recalls…');
    try {
      const params = { dataSources: plan.sources, hoursAgo: plan.hours, limit: 500 };
      for await (const page of session.client.feedPages(params)) {
        const rows: Record<string, unknown>[] = [];
        for (const recall of page.data as Record<string, unknown>[]) {
          counts.fetched++;
          if (!keep(recall)) continue;
          counts.checked++;
          for (const m of index.match(recall)) {
            counts[m.level]++;
            rows.push(matchRow(m, recall));
          }
        }
        await session.status.around(() => renderer.write(rows));
        session.status.progress(`matching recalls… ${n(counts.fetched)} of ${n(page.pagination.total_count)}`);
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
      await renderer.end();
      await target.commit();
    } catch (err) {
      await target.discard();
      throw err;
    }
    session.status.stop();
    const filtered = counts.checked === counts.fetched ? '' : ` (${n(counts.checked)} after filters)`;
    session.status.note(
      `catalogue: ${count(catalogue.rows.length, 'row', 'rows')} · ${count(index.rejected.length, 'barcode', 'barcodes')} rejected · recalls: ${n(counts.fetched)}${filtered} · ${count(counts.match, 'match', 'matches')} · ${n(counts.possible)} possible`,
    );
  } finally {
    await session.close();
  }
  if (plan.exitCode && counts.match > 0) throw new MatchesFoundError(counts.match);
}
