// Runs `match --learn`: the archive's closed cases judged against the catalogue, tiers and name words fitted, brand aliases gathered from its notices, written beside the catalogue.
import { AliasLearner, namedBrands } from '../../match/brand-aliases.js';
import { noticeFirms } from '../../match/notice-firms.js';
import { brandParts } from '../../match/brands.js';
import { fitLearned, type JudgedPair, MIN_CASES, TARGET } from '../../match/learned.js';
import { CatalogueIndex } from '../../match/matcher.js';
import { CONFIRMED, WRONG } from '../../match/quality.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import { groupDigits } from '../../output/numbers.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { ArchiveSession } from '../../runtime/session.js';
import { learnedPath } from '../matching/learned-file.js';
import { refuseWritingOver } from '../../runtime/files/kept-files.js';
import { loadCatalogue } from '../matching/load-catalogue.js';
import { keyColumn, rowKeys } from '../matching/open-cases.js';
import { checkLearnedTarget, writeLearned } from './learned-target.js';

/**
 * What a learning run uses: the archive, read; the catalogue, which neither -o nor the learned file may name
 * (`--learned products.csv` would write over the catalogue it learns for). The learned file naming the archive, which
 * only the session can find, is refused by runMatchLearn before it reads anything (checkLearnedTarget).
 */
export function learnUses(plan: LearnPlan) {
  const file = learnedPath(plan.catalog, plan.learned);
  refuseWritingOver('--learned', file, [{ path: plan.catalog, what: 'catalogue' }]);
  const kept = [
    { path: plan.catalog, what: 'catalogue' },
    { path: file, what: 'learned file' },
  ];
  return { output: {}, kept, archive: { db: plan.db, mode: 'read' as const } };
}

export interface LearnPlan {
  db: DbChoice;
  catalog: string;
  map: ColumnMap;
  key: string | undefined;
  /** Where to write; default beside the catalogue. */
  learned: string | undefined;
  formulaGuard: boolean;
  bom: boolean;
}

const COLUMNS = ['tier', 'confirmed', 'wrong', 'lower', 'level', 'target'] as const;

/** `session`: with the output and the archive (read-only) the command declared. */
export async function runMatchLearn(plan: LearnPlan, session: ArchiveSession): Promise<void> {
  const file = learnedPath(plan.catalog, plan.learned);
  // Before the catalogue or the cases are read: neither the archive nor a path that cannot be written (exit 2, 10).
  const archiveTarget = session.archive(plan.db);
  await checkLearnedTarget(
    file,
    archiveTarget.kind === 'sqlite' ? archiveTarget.file : undefined,
    plan.learned !== undefined,
  );
  const output = await session.output();
  const catalogue = await loadCatalogue(plan.catalog, plan.map);
  const keyOf = rowKeys(catalogue, keyColumn(catalogue, plan.key), session.status);
  const rows = new Map(catalogue.rows.map((r) => [keyOf(r), r]));
  const cells = productCells(catalogue.columns);
  // Fitted on the matcher as it is without any learning, so a second --learn does not learn from the first.
  const index = new CatalogueIndex(catalogue);
  const pairs: JudgedPair[] = [];
  const aliases = new AliasLearner();
  const brandOf = (row: { values: Record<string, string> }) =>
    brandParts(catalogue.columns.brand === undefined ? '' : (row.values[catalogue.columns.brand] ?? '')).strong;
  const archive = session.store;
  let elsewhere = 0;
  for (const c of await archive.cases({ statuses: ['closed'] })) {
    const right = c.outcome !== null && CONFIRMED.has(c.outcome);
    if (!right && !(c.outcome !== null && WRONG.has(c.outcome))) continue;
    // Only this catalogue's cases: a row with the case's key that is still the product the case was opened on. Another
    // catalogue's case, or one whose key now names another product (a re-sorted `line:` key), teaches nothing of it.
    const row = rows.get(c.catalog_key);
    if (!row || !sameProduct(cells, c.catalog_row, row.values)) {
      elsewhere++;
      continue;
    }
    const { recall } = await archive.caseWithRecall(c.id);
    // The words the pair shares as the matcher sees it now: a recall gone since teaches the tier only.
    const found = recall ? index.match(recall).find((m) => m.row === row) : undefined;
    pairs.push({ reason: c.reason, right, words: found?.nameWords ?? [] });
    // A pair people confirmed: the notice's firm recalled this row's brand, whatever tied them (a barcode, a model).
    // One they refused counts against that tie.
    if (recall) {
      const firms = noticeFirms(recall);
      if (right) aliases.confirmed(firms, brandOf(row));
      else aliases.refuted(firms, brandOf(row));
    }
  }
  // Every notice the archive holds: the catalogue brands it names beside a firm that is another.
  let notices = 0;
  await session.status.start("reading the archive's recalls…");
  for await (const recall of archive.records({ sinceUs: undefined, sources: undefined, filter: {} })) {
    aliases.notice(noticeFirms(recall), namedBrands(index, recall));
    if (++notices % 10_000 === 0) session.status.progress(`reading the archive's recalls… ${groupDigits(notices)}`);
    if (session.ctx.signal.aborted) throw session.ctx.signal.reason;
  }
  const learnedAliases = aliases.result();
  // The bytes the cases were judged against, as the catalogue's read hashed them: the file is not read again.
  const sha256 = catalogue.sha256 ?? '';
  const learned = fitLearned(pairs, { at: new Date(session.ctx.now()).toISOString(), sha256 }, learnedAliases.aliases);
  await writeLearned(file, `${JSON.stringify(learned, null, 2)}\n`, plan.learned !== undefined);
  const table = Object.entries(learned.tiers).map(([tier, t]) => ({
    tier,
    confirmed: t.confirmed,
    wrong: t.wrong,
    lower: t.lower,
    level: t.level,
    target: t.level === 'match' ? TARGET.match : TARGET.possible,
  }));
  const spec = { tableColumns: [...COLUMNS], csvColumns: [...COLUMNS], formulaGuard: plan.formulaGuard, bom: plan.bom };
  await output.write((sink) => sink.rows(spec, table));
  const promoted = table.filter(
    (t) => t.level === 'match' && !['barcode', 'model+brand', 'brand+full-name'].includes(t.tier),
  );
  session.status.note(
    `learned from ${groupDigits(pairs.length)} closed cases (${MIN_CASES.tier} per tier needed${leftOut(elsewhere)}): ${promoted.length === 0 ? 'no tier promoted' : `${promoted.map((t) => t.tier).join(', ')} promoted to match`} · ${groupDigits(Object.keys(learned.words).length)} name words reweighed · ${aliasSummary(learnedAliases, notices)} · written to ${file}`,
  );
}

/** The cells that make a row the product it is, which a case's row (as it was opened) must still hold to teach. */
function productCells(columns: ColumnMap): string[] {
  const roles = [columns.gtin, ...(columns.gtinAlso ?? []), columns.brand, columns.model, columns.name];
  return roles.filter((c): c is string => c !== undefined);
}

/** Each of those cells the case kept holds what it held then (a column added since is not held against it). */
function sameProduct(cells: readonly string[], opened: Record<string, string>, now: Record<string, string>): boolean {
  return cells.every((c) => !Object.hasOwn(opened, c) || opened[c]?.trim() === (now[c] ?? '').trim());
}

function leftOut(cases: number): string {
  return cases === 0 ? '' : `; ${groupDigits(cases)} left out: their rows are not this catalogue's as they were`;
}

function aliasSummary(learned: ReturnType<AliasLearner['result']>, notices: number): string {
  const pairs = Object.values(learned.aliases).reduce((n, brands) => n + Object.keys(brands).length, 0);
  const broad = learned.tooBroad === 0 ? '' : `; ${groupDigits(learned.tooBroad)} firms under too many brands left out`;
  return `${groupDigits(pairs)} brands learned under another firm's name from ${groupDigits(notices)} notices${broad}`;
}
