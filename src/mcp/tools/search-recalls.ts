// search_recalls and get_recall: the archive's recalls by full-text query and record filters, and one with its history.
import { isDeepStrictEqual } from 'node:util';
import { SOURCE_IDS } from '../../api/constants.js';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RecallSchema } from '../../api/schemas.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';
import { answer, guarded } from '../answer.js';
import { cutLines, fitted } from '../fit.js';
import { FreshnessSchema } from '../freshness.js';
import { parseInstant } from '../../runtime/options/option-parsers.js';
import type { ToolDeps } from '../tool-deps.js';
import { hitLine, recallHit, RecallHitSchema } from './recall-hits.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

const searchInput = {
  query: z.string().max(500).optional().describe('words that must all appear (title, product, brand, hazard, ...)'),
  sources: z
    .array(z.string().max(100))
    .max(50)
    .optional()
    .describe(`data source ids as the archive holds them, e.g. ${SOURCE_IDS.join(', ')}`),
  since: z.string().max(40).optional().describe('published since: 36h, 7d, 2w or an ISO date'),
  severity: z.array(z.string().max(100)).max(20).optional().describe('risk_severity values, e.g. serious, high'),
  country: z.string().max(100).optional().describe('country of origin: ISO code or name'),
  brand: z.string().max(200).optional().describe('product_brand contains this'),
  category: z.string().max(200).optional().describe('product_category contains this'),
  limit: z.number().int().min(1).max(100).default(20),
};

/** The fields where `version` differs from `current`, with `version`'s values (null for a field it lacks). */
function differences(version: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  const differs: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(version), ...Object.keys(current)]))
    if (!isDeepStrictEqual(version[key], current[key])) differs[key] = version[key] ?? null;
  return differs;
}

export function registerSearchTools(server: McpServer, deps: ToolDeps): void {
  const { ctx } = deps.session;
  server.registerTool(
    'search_recalls',
    {
      title: 'Search the recall archive',
      description:
        'Full-text search of the local recall archive (offline), newest first, with record filters. Each hit cites its source and notice link.',
      inputSchema: searchInput,
      outputSchema: {
        freshness: FreshnessSchema,
        hits: z.array(RecallHitSchema),
        truncated: z.boolean(),
        warnings: z.array(z.string()).describe('filter values no archived recall holds: a likely typo'),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, () =>
        deps.read(async (archive) => {
          const listing = {
            search: args.query?.trim() || undefined,
            sources: args.sources,
            sinceUs: parseInstant(args.since, 'since', ctx.now()),
            filter: { severity: args.severity, country: args.country, brand: args.brand, category: args.category },
            sortBy: 'published_at' as const,
            order: 'desc' as const,
            limit: args.limit + 1,
          };
          const hits = [];
          for await (const r of archive.records(listing)) hits.push(recallHit(r));
          const truncated = hits.length > args.limit;
          const shown = hits.slice(0, args.limit);
          // After the listing: the archive is one connection. A mistyped value would read as "nothing recalled".
          // Named as this tool's arguments (`severity seriuos matched no recall…`), not as the CLI's flags.
          const warnings = (await archiveFilterWarnings(archive, listing)).map((w) => w.replace(/^--(\w+) /, '$1 '));
          const freshness = await deps.freshness(archive);
          const head = `${shown.length}${truncated ? '+' : ''} recall(s) in the archive:`;
          const found = shown.length === 0 ? ['No recall in the archive fits.'] : [head, ...shown.map(hitLine)];
          const text = [...warnings.map((w) => `warning: ${w}`), ...found].join('\n');
          return answer(freshness, text, { hits: shown, truncated, warnings });
        }),
      ),
  );

  server.registerTool(
    'get_recall',
    {
      title: 'One recall with its history',
      description:
        'One recall from the archive by id, as the regulator published it, with every stored version: what each earlier version said differently. A text too long to send is cut, marked where it was cut.',
      inputSchema: { id: z.number().int().min(1).describe('the recall id') },
      outputSchema: {
        freshness: FreshnessSchema,
        recall: RecallSchema,
        versions: z.array(
          z.object({
            version: z.number().int(),
            stored_at: z.string().nullable(),
            current: z.boolean(),
            differs: z
              .record(z.string(), z.unknown())
              .describe(
                "the fields where this version differs from the current record (`recall`), with this version's values; null: it had no such field. Empty for the current version",
              ),
          }),
        ),
        cut: z.array(z.string()).describe('what was cut to keep the answer small (each cut is marked in the text)'),
      },
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, () =>
        deps.read(async (archive) => {
          const stored = await archive.versions(args.id);
          if (stored.length === 0)
            throw new UsageError(`recall ${args.id} is not in the archive`, 'search_recalls finds ids');
          const records = stored.map((v) => JSON.parse(v.raw) as Record<string, unknown> & { id: number });
          const found = stored.findIndex((v) => v.current);
          const at = found === -1 ? stored.length - 1 : found;
          const recall = records[at]!;
          // The current record once: a version repeating it whole doubled the answer (11 MB for a 5.5 MB notice).
          const versions = stored.map((v, i) => ({
            version: v.version,
            stored_at: v.storedAt ?? null,
            current: i === at,
            differs: i === at ? {} : differences(records[i]!, recall),
          }));
          const { value, cut } = fitted({ recall, versions });
          const text = [
            // From the record as stored: its link whole, never the cut one (a hit cuts its own texts).
            hitLine(recallHit(recall)),
            `${versions.length} stored version(s).`,
            ...cutLines(cut),
          ].join('\n');
          return answer(await deps.freshness(archive), text, { ...value, cut });
        }),
      ),
  );
}
