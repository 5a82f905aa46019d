// `recall-feed mcp`: its flags and help; the MCP server itself (src/mcp) and its SDK load only when it runs.
import { UsageError } from '../../runtime/cli-errors.js';
import { mapOf } from '../../runtime/options/option-parsers.js';
import type { McpPlan } from '../../mcp/plan.js';
import { addDbOption, parseDb } from './archive-options.js';
import { listenError } from './listen-errors.js';
import type { OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';

/** `recall-feed mcp`: its flags and help; commander's types of them are the options' types. */
function declareMcp(cmd: NewCommand) {
  const mcp = cmd
    .option('--http <[host:]port>', 'serve Streamable HTTP at /mcp instead of stdio (host default 127.0.0.1)')
    .option('--allow-writes', 'add the tools open_case, wait_case and resolve_case (recorded as mcp:<client>)')
    .option('--catalog <file>', 'your products (CSV or JSON lines): what check_products and digest check by default')
    .option('--map <spec>', 'catalogue columns by role, as match --map: gtin=EAN13,brand=Marque,...')
    .option('--key <column>', 'the column naming each product for cases (default: sku, id, ref, our_ref, article)');
  return addDbOption(mcp).addHelpText(
    'after',
    `
Read-only unless --allow-writes. Every answer says when the archive last synced and whether monitoring
was complete; keep \`recall-feed sync\` running from cron. Over --http beyond loopback a bearer token is
required: set it with \`recall-feed config set mcp-token\` (read from stdin) or RECALL_FEED_MCP_TOKEN,
never on the command line. Client set-up for Claude Desktop, VS Code and Cursor: docs/mcp.md.

Examples:
  recall-feed mcp --catalog products.csv
  recall-feed mcp --http 8765 --allow-writes`,
  );
}

type McpOptions = OptionsOf<ReturnType<typeof declareMcp>>;

export default defineCommand({
  name: 'mcp',
  summary: 'serve the archive, your matches, cases and deadlines to AI assistants (Model Context Protocol)',
  flags: declareMcp,
  plan: (opts) => planMcp(opts),
  run: async (plan, session) => {
    const { serveMcp } = await import('../../mcp/serve.js');
    try {
      return await serveMcp(plan, session);
    } catch (err) {
      throw plan.http ? listenError(err, plan.http.host, plan.http.port, '--http') : err;
    }
  },
});

/** `[host:]port`: a port alone binds loopback; `[::1]:8765` for IPv6. */
export function parseListen(raw: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):)?(\d{1,5})$/.exec(raw.trim());
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65_535)
    throw new UsageError(`--http must be [host:]port, not '${raw}'`, 'examples: --http 8765, --http 127.0.0.1:8765');
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

export function planMcp(opts: McpOptions): McpPlan {
  if ((opts.map !== undefined || opts.key !== undefined) && opts.catalog === undefined)
    throw new UsageError('--map and --key describe a --catalog', 'example: recall-feed mcp --catalog products.csv');
  const map = mapOf(opts.map);
  return {
    db: parseDb(opts),
    http: opts.http === undefined ? undefined : parseListen(opts.http),
    allowWrites: opts.allowWrites === true,
    catalog: opts.catalog === undefined ? undefined : { file: opts.catalog, map, key: opts.key },
  };
}
