// Runs `cases show|resolve|wait|reopen|verify`: one case read or moved one step, or the whole log checked.
import type { ArchiveStore, CaseView } from '../../archive/index.js';
import { writeChunk } from '../../output/backpressure.js';
import { escapeJsonControls } from '../../output/control-escapes.js';
import { type DbChoice, openArchiveAt, writing } from '../archive/archive-file.js';
import { openLocal, type LocalSession, readArchive } from '../archive/local-session.js';
import type { Context } from '../context.js';
import { chooseFormat, openTarget, reachesTerminal } from '../files/output-target.js';
import { writeOutput } from '../files/write-output.js';
import type { GlobalFlags } from '../settings.js';
import { caseText } from './case-text.js';
import { caseRecord } from './list-cases.js';
import { CASE_FIELDS, type CaseStepPlan } from './plans.js';

/** Opens the archive for `fn`: for writing a step, read-only for show and verify (a read-only file or role will do). */
async function withArchive<T>(
  db: DbChoice,
  mode: 'read' | 'write',
  globals: GlobalFlags,
  ctx: Context,
  fn: (archive: ArchiveStore, local: LocalSession) => Promise<T>,
): Promise<T> {
  const local = await openLocal(globals, ctx, db);
  const archive = mode === 'write' ? await openArchiveAt(local.archive, { create: false }) : await readArchive(local);
  try {
    return await fn(archive, local);
  } finally {
    await archive.close();
  }
}

/** Text on a terminal (or -f table), else the case as one JSON object (with its recall when given). */
async function printCase(
  local: LocalSession,
  ctx: Context,
  c: CaseView,
  recall: Record<string, unknown> | undefined | null,
): Promise<void> {
  const format = chooseFormat(local.settings, local.terminal);
  const json = recall === null ? caseRecord(c) : { ...caseRecord(c), recall: recall ?? null };
  const body =
    format === 'table'
      ? caseText(c, recall ?? undefined, recall !== null)
      : `${escapeJsonControls(JSON.stringify(json, null, format === 'json' ? 2 : undefined))}\n`;
  await writeOutput(
    () => openTarget(local.settings, ctx),
    async (target) => {
      if (format !== 'csv') return writeChunk(target.stream, body);
      // csv: the case as one row, as `cases -f csv` writes it (formula guard on).
      const { createRenderer } = await import('../../output/renderer.js');
      const columns = [...CASE_FIELDS];
      const renderer = createRenderer({
        format,
        out: target.stream,
        tableColumns: columns,
        csvColumns: columns,
        toTerminal: reachesTerminal(target, local.terminal),
      });
      await renderer.write([caseRecord(c)]);
      await renderer.end();
    },
  );
}

export async function runShowCase(plan: { db: DbChoice; id: number }, globals: GlobalFlags, ctx: Context) {
  await withArchive(plan.db, 'read', globals, ctx, async (archive, local) => {
    const found = await archive.caseWithRecall(plan.id);
    await printCase(local, ctx, found.case, found.recall);
  });
}

export async function runStep(plan: CaseStepPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  await withArchive(plan.db, 'write', globals, ctx, async (archive, local) => {
    const by = { at: new Date(ctx.now()).toISOString(), actor: plan.by, note: plan.note };
    const after = await writing(local.archive.name, () => archive.stepCase(plan.id, plan.step, by));
    await printCase(local, ctx, after, null);
  });
}

export async function runVerify(db: DbChoice, globals: GlobalFlags, ctx: Context): Promise<void> {
  await withArchive(db, 'read', globals, ctx, async (archive, local) => {
    const check = await archive.verifyCases();
    const format = chooseFormat(local.settings, local.terminal);
    const result = {
      ok: check.broken === undefined,
      cases: check.cases,
      events: check.events,
      head: check.head,
      broken: check.broken
        ? { seq: check.broken.seq, case_id: check.broken.caseId ?? null, problem: check.broken.problem }
        : null,
    };
    const text =
      format === 'table'
        ? check.broken
          ? ''
          : `ok: ${check.events} events on ${check.cases} cases, every hash in place\nhead ${check.head}\n`
        : `${escapeJsonControls(JSON.stringify(result, null, format === 'json' ? 2 : undefined))}\n`;
    if (text !== '')
      await writeOutput(
        () => openTarget(local.settings, ctx),
        (t) => writeChunk(t.stream, text),
      );
    if (check.broken) {
      const { CaseLogBrokenError } = await import('../../archive/cases-errors.js');
      throw new CaseLogBrokenError(`the case log is broken at event ${check.broken.seq}: ${check.broken.problem}`);
    }
  });
}
