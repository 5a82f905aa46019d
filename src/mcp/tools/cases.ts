// list_cases and get_case: the cases `match --open-cases` opened, their deadlines, timelines and whether the chain holds.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CASE_STATUSES, type CaseStatus, type CaseView, isOverdue } from '../../archive/cases-model.js';
import { CaseSchema } from '../../jobs/contracts/case-schema.js';
import { caseRecord } from '../../jobs/cases/list-cases.js';
import { byLevelAndSeverity } from '../../jobs/matching/case-order.js';
import { casesOrNone } from '../../runtime/archive/cases-or-none.js';
import { plainLine } from '../../output/control-escapes.js';
import { answer, guarded } from '../answer.js';
import { cutLines, fitted } from '../fit.js';
import { FreshnessSchema } from '../freshness.js';
import type { ToolDeps } from '../tool-deps.js';
import { caseLine } from './case-line.js';

const STATES = ['active', 'open', 'waiting', 'closed', 'all'] as const;

const ChainSchema = z.object({
  intact: z.boolean().describe('the whole case log verifies: every hash in place'),
  this_case_ok: z.boolean().describe("no break found in this case's own events"),
  events: z.number().int().describe('the events that checked out: all of them, or those before the break'),
  head: z.string().nullable().describe("the log's head hash; null when the chain is broken"),
  problem: z.string().nullable(),
});

function statuses(state: (typeof STATES)[number]): CaseStatus[] {
  if (state === 'all') return [...CASE_STATUSES];
  if (state === 'active') return ['open', 'waiting'];
  return [state];
}

/**
 * Most urgent first: overdue cases, then the rest by their due time (the soonest first, none last), then by level and
 * the recall's severity. What a text-only client reads is the first 20.
 */
export function byUrgency(nowMs: number) {
  const due = (c: CaseView) => (c.due_at === null ? Number.POSITIVE_INFINITY : Date.parse(c.due_at));
  return (a: CaseView, b: CaseView) =>
    Number(isOverdue(b, nowMs)) - Number(isOverdue(a, nowMs)) || due(a) - due(b) || byLevelAndSeverity(a, b);
}

export function registerCaseTools(server: McpServer, deps: ToolDeps): void {
  const { ctx, status } = deps.session;
  server.registerTool(
    'list_cases',
    {
      title: 'List cases',
      description:
        'The cases in the archive (a catalogue product and the recall it matched), most urgent first: by state, or only those past their due time.',
      inputSchema: {
        state: z.enum(STATES).default('active').describe('active: open and waiting (the default)'),
        overdue: z.boolean().default(false).describe('only open and waiting cases past their due time'),
        limit: z.number().int().min(1).max(500).default(100),
      },
      outputSchema: {
        freshness: FreshnessSchema,
        cases: z.array(CaseSchema),
        total: z.number().int().min(0),
        overdue: z.number().int().min(0),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, () =>
        deps.read(async (archive) => {
          const now = ctx.now();
          const all = await casesOrNone({ archive: deps.where, status }, () =>
            archive.cases({ statuses: statuses(args.state) }),
          );
          const chosen = (args.overdue ? all.filter((c) => isOverdue(c, now)) : all).sort(byUrgency(now));
          const overdue = chosen.filter((c) => isOverdue(c, now)).length;
          const shown = chosen.slice(0, args.limit);
          const head = `${chosen.length} case(s) (${args.overdue ? 'overdue' : args.state}), ${overdue} overdue.`;
          const text = [head, ...shown.slice(0, 20).map((c) => caseLine(c, now))].join('\n');
          return answer(await deps.freshness(archive), text, {
            cases: shown.map(caseRecord),
            total: chosen.length,
            overdue,
          });
        }),
      ),
  );

  server.registerTool(
    'get_case',
    {
      title: 'One case with its timeline',
      description:
        "One case by id: the product, the recall, every step on its timeline, and whether the case log's hash chain verifies.",
      inputSchema: { id: z.number().int().min(1).describe('the case id') },
      outputSchema: { freshness: FreshnessSchema, case: CaseSchema, chain: ChainSchema },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, () =>
        deps.read(async (archive) => {
          const found = await archive.caseWithRecall(args.id);
          const check = await archive.verifyCases();
          const chain = {
            intact: check.broken === undefined,
            this_case_ok: check.broken === undefined || (check.broken.caseId ?? args.id) !== args.id,
            events: check.events,
            head: check.head,
            problem: check.broken ? `event ${check.broken.seq}: ${check.broken.problem}` : null,
          };
          const c = found.case;
          // One line a step: a note or actor is anyone's text, and a line break in it would forge a step.
          const steps = c.events.map(
            (e) => `  ${e.at} ${plainLine(e.actor)}: ${e.action}${e.note ? ` (${plainLine(e.note)})` : ''}`,
          );
          const verdict = chain.intact ? 'the case log verifies' : `THE CASE LOG IS BROKEN at ${chain.problem}`;
          // The recall whole, as get_recall gives it: within what a client reads at once, long texts cut and marked.
          const fit = fitted({ case: { ...caseRecord(c), recall: found.recall ?? null } });
          const cut = cutLines(fit.cut);
          const text = [caseLine(c, ctx.now()), ...steps, verdict, ...cut].join('\n');
          return answer(await deps.freshness(archive), text, { ...fit.value, chain });
        }),
      ),
  );
}
