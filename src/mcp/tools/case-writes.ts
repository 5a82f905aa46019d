// open_case, wait_case and resolve_case (only with --allow-writes): each step in the case's chain as mcp:<client name>.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CaseCandidate, type CaseStep, OUTCOMES } from '../../archive/cases-model.js';
import { CaseSchema } from '../../jobs/contracts/case-schema.js';
import { caseRecord } from '../../jobs/cases/list-cases.js';
import { rowKey } from '../../jobs/matching/open-cases.js';
import { caseSla, dueAt } from '../../jobs/matching/sla.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { answer, guarded } from '../answer.js';
import { FreshnessSchema } from '../freshness.js';
import type { ToolDeps } from '../tool-deps.js';
import { caseLine } from './case-line.js';
import { ProductSchema, productsFor } from './products.js';

const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const note = z.string().max(2000).optional().describe('why: kept in the case log');
const caseOut = { freshness: FreshnessSchema, case: CaseSchema };

/** The (product, recall) pair's candidate as match --open-cases makes it, its deadline from the configured SLA. */
async function candidate(
  deps: ToolDeps,
  args: { recall_id: number; product?: z.infer<typeof ProductSchema>; catalog_line?: number },
  recall: Record<string, unknown>,
): Promise<CaseCandidate> {
  if ((args.product === undefined) === (args.catalog_line === undefined))
    throw new UsageError('give either product (inline) or catalog_line (of the server catalogue), not both or neither');
  if (args.product !== undefined && !args.product.sku?.trim())
    throw new UsageError('an inline product needs its sku: its cases are known by it');
  const products = await productsFor(deps, args.product === undefined ? undefined : [args.product]);
  const line = args.catalog_line ?? 1;
  const row = products.catalogue.rows.find((r) => r.line === line);
  if (row === undefined) throw new UsageError(`the catalogue has no line ${line}`);
  const found = products.index.match(recall).filter((m) => m.row.line === line);
  const m = found.find((x) => x.level !== 'excluded');
  if (m === undefined) {
    const why =
      found.length > 0 ? "its lot or date is outside the notice's" : 'check_products finds no match or possible';
    throw new UsageError(`that product does not match recall ${args.recall_id} (${why}): a case is opened on a match`);
  }
  const sla = await caseSla(undefined, deps.session.settings.profileCaseSla);
  const name = products.catalogue.columns.name;
  return {
    recallId: args.recall_id,
    catalogKey: rowKey(row, products.key),
    level: m.level,
    reason: m.reason,
    catalogRow: row.values,
    alertTitle: typeof recall.alert_title === 'string' ? recall.alert_title : null,
    dueAt: sla ? (dueAt(sla, recall.published_at) ?? null) : null,
    sla: sla?.text ?? null,
    productName: name ? row.values[name]?.trim() || null : null,
  };
}

export function registerCaseWrites(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps.session;
  const by = (text: string | undefined) => ({
    at: new Date(ctx.now()).toISOString(),
    actor: deps.actor(),
    note: text?.trim() || null,
  });

  server.registerTool(
    'open_case',
    {
      title: 'Open a case',
      description:
        'Opens a case on a product and the recall it matches (as match --open-cases would): a product inline with its sku, or a line of the server catalogue. A pair that has a case keeps it.',
      inputSchema: {
        recall_id: z.number().int().min(1),
        product: ProductSchema.optional(),
        catalog_line: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("a line of the server's catalogue (1: the first data row)"),
        note,
      },
      outputSchema: { ...caseOut, opened: z.boolean().describe('false: the pair already had this case') },
      annotations: WRITES,
    },
    (args) =>
      guarded(ctx, () =>
        deps.write(async (archive) => {
          const [current] = (await archive.versions(args.recall_id)).filter((v) => v.current);
          if (current === undefined) throw new UsageError(`recall ${args.recall_id} is not in the archive`);
          const pair = await candidate(deps, args, JSON.parse(current.raw) as Record<string, unknown>);
          const { opened, ids } = await archive.openCases([pair], by(args.note));
          // By its id: the archive stores the pair's texts its own way (a lone surrogate as U+FFFD).
          const cases = await archive.cases({ statuses: ['open', 'waiting', 'closed'] });
          const c = cases.find((x) => x.id === ids[0]);
          if (c === undefined) throw new Error('the case just opened is not in the archive');
          const text = `${opened > 0 ? 'Opened' : 'Already open'}: ${caseLine(c, ctx.now())}`;
          return answer(await deps.freshness(archive), text, { case: caseRecord(c), opened: opened > 0 });
        }),
      ),
  );

  const step = (
    name: string,
    title: string,
    description: string,
    extra: z.ZodRawShape,
    stepOf: (a: Record<string, unknown>) => CaseStep,
  ) =>
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: { id: z.number().int().min(1).describe('the case id'), ...extra, note },
        outputSchema: caseOut,
        annotations: WRITES,
      },
      (args: Record<string, unknown>) =>
        guarded(ctx, () =>
          deps.write(async (archive) => {
            const c = await archive.stepCase(args.id as number, stepOf(args), by(args.note as string | undefined));
            return answer(await deps.freshness(archive), caseLine(c, ctx.now()), { case: caseRecord(c) });
          }),
        ),
    );

  step(
    'wait_case',
    'Park a case',
    'Marks a case as waiting (on a supplier, a test): still unresolved, still due.',
    {},
    () => ({ kind: 'wait' }),
  );
  step(
    'resolve_case',
    'Resolve a case',
    'Closes a case with its outcome.',
    { outcome: z.enum(OUTCOMES).describe('how it was resolved') },
    (a) => ({ kind: 'resolve', outcome: a.outcome as (typeof OUTCOMES)[number] }),
  );
}
