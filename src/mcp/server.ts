// One MCP server (one per connection): its tools (writes only when allowed), the schema resources and the prompt.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import packageJson from '../../package.json' with { type: 'json' };
import type { Session } from '../runtime/session.js';
import type { KeySources } from './freshness.js';
import type { McpPlan } from './plan.js';
import { registerPrompt, registerSchemas } from './schemas-and-prompt.js';
import { actorOf, toolDeps } from './tool-deps.js';
import { registerCaseWrites } from './tools/case-writes.js';
import { registerCaseTools } from './tools/cases.js';
import { registerCheckProducts } from './tools/check-products.js';
import { registerDigest } from './tools/digest.js';
import { registerSearchTools } from './tools/search-recalls.js';

export const READ_TOOLS = ['search_recalls', 'get_recall', 'check_products', 'list_cases', 'get_case', 'digest'];
export const WRITE_TOOLS = ['open_case', 'wait_case', 'resolve_case'];

const INSTRUCTIONS =
  "recall-feed's local archive of product recalls (synced from the regulators), your catalogue's matches, cases and deadlines. Offline: answers come from the last sync; each says how fresh it is, and a stale or incomplete archive is said first. A product check_products returns no row for is not thereby safe: only nothing visible in the archived notices matched it.";

export function buildServer(session: Session, plan: McpPlan, allowed: () => Promise<KeySources>): McpServer {
  const server = new McpServer({ name: 'recall-feed', version: packageJson.version }, { instructions: INSTRUCTIONS });
  const deps = toolDeps(session, plan, allowed, () => actorOf(server.server.getClientVersion()?.name));
  registerSearchTools(server, deps);
  registerCheckProducts(server, deps);
  registerCaseTools(server, deps);
  registerDigest(server, deps);
  if (plan.allowWrites) registerCaseWrites(server, deps);
  registerSchemas(server);
  registerPrompt(server);
  return server;
}
