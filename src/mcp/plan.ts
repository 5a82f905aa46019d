// What `recall-feed mcp` serves with, its flags checked by src/cli/commands/mcp.ts.
import type { ColumnMap } from '../match/catalogue-columns.js';
import type { DbChoice } from '../runtime/archive/archive-file.js';

export interface McpPlan {
  db: DbChoice;
  /** --http: Streamable HTTP at this address; undefined: stdio. */
  http: { host: string; port: number } | undefined;
  /** --allow-writes: open_case, wait_case and resolve_case are listed. */
  allowWrites: boolean;
  /** --catalog: the products check_products and digest use when none are given inline. */
  catalog: { file: string; map: ColumnMap; key: string | undefined } | undefined;
}
