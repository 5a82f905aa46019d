// digest: a period's summary from the archive as `digest -f json` collects it, your products first, with monitoring health.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { endAfterNow } from '../../archive/store.js';
import { DigestSchema } from '../../jobs/contracts/digest-schema.js';
import { collectDigest } from '../../jobs/digest/collect-digest.js';
import { digestSubject, healthLines } from '../../output/digest/digest-view.js';
import { answer, guarded } from '../answer.js';
import { cutLines, fitted } from '../fit.js';
import { FreshnessSchema } from '../freshness.js';
import type { ToolDeps } from '../tool-deps.js';
import { RecallHitSchema, recallHit } from './recall-hits.js';

const DAY_MS = 86_400_000;
/** Recalls listed per kind; the counts cover them all. A week of every source is thousands: a model needs the few worst. */
const LISTED = 50;

/** The digest contract, with each recall as a hit (its full record is one get_recall away). */
const McpDigestSchema = DigestSchema.omit({ recalls: true, matches: true }).extend({
  recalls: z.object({
    new: z.array(RecallHitSchema).describe(`the ${LISTED} worst first; counts.new counts all`),
    updated: z.array(RecallHitSchema).describe(`the ${LISTED} worst first; counts.updated counts all`),
  }),
});

export function registerDigest(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps.session;
  server.registerTool(
    'digest',
    {
      title: "The period's digest",
      description:
        "What the archive stored in the last days: your products first (with the server's catalogue), cases overdue or due soon, the new and updated recalls worst first, and whether monitoring held (complete or not, and why).",
      inputSchema: { days: z.number().int().min(1).max(31).default(1).describe('the period: the last N days') },
      outputSchema: {
        freshness: FreshnessSchema,
        digest: McpDigestSchema,
        warnings: z.array(z.string()).describe("the catalogue's problems: a barcode it rejected (never matched), ..."),
        cut: z.array(z.string()).describe('what was cut to keep the answer small (each cut is marked in the text)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        // As the digest command's default: the period is the days back from now, now included.
        const nowMs = ctx.now();
        const toMs = endAfterNow(nowMs);
        const selection = {
          fromMs: nowMs - args.days * DAY_MS,
          toMs,
          sources: undefined,
          filter: {},
          catalog: deps.plan.catalog,
        };
        // The server's sources, asked once and never waited on long (the digest's own ask waited minutes on an API
        // that did not answer); the catalogue's warnings kept for the answer, not said once for the cron log.
        let warnings: string[] = [];
        const given = { allowed: await deps.sources(), catalogueWarnings: (w: string[]) => (warnings = w) };
        // One opening of the archive for the digest and its freshness: they then describe the same state.
        const [d, freshness] = await deps.read(
          async (store) =>
            [
              await collectDigest(selection, { ...deps.session, store }, given),
              await deps.freshness(store, given.allowed),
            ] as const,
        );
        const { matches: _matches, recalls, ...rest } = d;
        const digest = {
          ...rest,
          recalls: {
            new: recalls.new.slice(0, LISTED).map(recallHit),
            updated: recalls.updated.slice(0, LISTED).map(recallHit),
          },
        };
        const said = warnings.map((w) => `warning: ${w}`);
        const fit = fitted({ digest, warnings });
        const cut = cutLines(fit.cut);
        const text = [digestSubject(d), ...said, ...healthLines(d), ...cut].join('\n');
        return answer(freshness, text, { ...fit.value, cut: fit.cut });
      }),
  );
}
