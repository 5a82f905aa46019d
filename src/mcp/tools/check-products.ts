// check_products: products (inline or the configured catalogue) against the archive: the rows `match` prints, with evidence.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MatchRowSchema } from '../../jobs/contracts/match-row-schema.js';
import { byLevelThenSeverity, matchRow } from '../../jobs/matching/match-rows.js';
import { plain } from '../../output/recall-text.js';
import { answer, guarded } from '../answer.js';
import { cutLines, cutText, fitted } from '../fit.js';
import { FreshnessSchema } from '../freshness.js';
import { parseInstant } from '../../runtime/options/option-parsers.js';
import type { ToolDeps } from '../tool-deps.js';
import { ProductSchema, productsFor } from './products.js';

/** Said with every answer, rows or none: matching shows what it can prove, never that a product is safe. */
export const NOT_A_VERDICT =
  'A product with no row is not thereby safe: no row only means nothing visible in the archived notices matched it. Rows with scope "unknown" need their lot or date checked against the notice.';

const counts = z.object({
  recalls_checked: z.number().int().min(0),
  products: z.number().int().min(0),
  match: z.number().int().min(0),
  possible: z.number().int().min(0),
  excluded: z.number().int().min(0),
});

export function registerCheckProducts(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps.session;
  server.registerTool(
    'check_products',
    {
      title: 'Check products against the recalls',
      description:
        "Checks products (given inline, else the server's configured catalogue) against the archived recalls, as `recall-feed match --archive` does: each row with its level (match, possible, excluded), reason, scope, the notice's evidence and an explanation.",
      inputSchema: {
        products: z.array(ProductSchema).max(1000).optional().describe('omit to check the configured catalogue'),
        since: z
          .string()
          .max(40)
          .optional()
          .describe('recalls published since: 7d, 30d or an ISO date (default: all archived)'),
        limit: z.number().int().min(1).max(1000).default(200).describe('rows at most, matches first'),
      },
      outputSchema: {
        freshness: FreshnessSchema,
        rows: z.array(MatchRowSchema),
        truncated: z.boolean(),
        counts,
        note: z.string(),
        warnings: z
          .array(z.string())
          .describe("the products' problems, as `match` says them: a barcode with a wrong check digit, ..."),
        cut: z.array(z.string()).describe('what was cut to keep the answer small (each cut is marked in the text)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const sinceUs = parseInstant(args.since, 'since', ctx.now());
        const { catalogue, index, warnings } = await productsFor(deps, args.products);
        return deps.read(async (archive) => {
          const tally = { recalls_checked: 0, products: catalogue.rows.length, match: 0, possible: 0, excluded: 0 };
          const rows: Record<string, unknown>[] = [];
          for await (const recall of archive.records({ sinceUs })) {
            tally.recalls_checked++;
            for (const m of index.match(recall, { explain: true })) {
              tally[m.level]++;
              rows.push(matchRow(m, recall, true));
            }
            if (ctx.signal.aborted) throw ctx.signal.reason;
          }
          rows.sort(byLevelThenSeverity);
          // Within what a client reads at once: a long title repeated in a thousand rows is cut, then rows dropped.
          const fit = fitted({ rows: rows.slice(0, args.limit), warnings });
          const shown = fit.value.rows;
          const lines = shown
            .slice(0, 20)
            .map(
              (r) =>
                `- ${r.level} (${r.reason}, ${r.scope}): line ${r.catalog_line} ~ recall ${r.recall_id} ${cutText(plain(r, 'alert_title'), 300)}`,
            );
          const head = `${tally.match} match, ${tally.possible} possible, ${tally.excluded} excluded over ${tally.recalls_checked} archived recalls and ${tally.products} product(s).`;
          const said = fit.value.warnings.map((w) => `warning: ${w}`);
          const cut = cutLines(fit.cut);
          const text = [head, ...said, ...lines, ...cut, NOT_A_VERDICT].join('\n');
          return answer(await deps.freshness(archive), text, {
            rows: shown,
            truncated: rows.length > shown.length,
            counts: tally,
            note: NOT_A_VERDICT,
            warnings: fit.value.warnings,
            cut: fit.cut,
          });
        });
      }),
  );
}
