// The JSON Schemas of the output contracts as resources (as schemas/*.schema.json ships them), and the one prompt.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CONTRACTS, contractSchema, type ContractName } from '../jobs/contracts/contracts.js';

export const SCHEMA_URI = 'recall-feed://schemas/';

export function registerSchemas(server: McpServer): void {
  for (const name of Object.keys(CONTRACTS) as ContractName[]) {
    const uri = `${SCHEMA_URI}${name}.schema.json`;
    server.registerResource(
      `schema-${name}`,
      uri,
      {
        title: `recall-feed ${name} contract`,
        description: CONTRACTS[name].description ?? `the ${name} contract`,
        mimeType: 'application/schema+json',
      },
      () => ({
        contents: [
          { uri, mimeType: 'application/schema+json', text: `${JSON.stringify(contractSchema(name), null, 2)}\n` },
        ],
      }),
    );
  }
}

export const PROMPT_NAME = 'check-my-products';

export function registerPrompt(server: McpServer): void {
  server.registerPrompt(
    PROMPT_NAME,
    {
      title: "Check my products against this week's recalls",
      description: "Runs check_products over the last 7 days and the week's digest, and reports what to act on.",
    },
    () => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              "Check my products against this week's recalls.",
              '1. Call check_products with since "7d" (the server\'s catalogue, unless I give products).',
              '2. Call digest with days 7 for the cases overdue or due soon and the monitoring health.',
              '3. Report matches first, then possibles, each with the recall id, title, severity, the notice link and the evidence; for scope "unknown", say which lot or date to check.',
              '4. Start with how fresh the archive is; if it is stale or monitoring was incomplete, say so before anything else.',
              '5. Never call a product safe: no row only means nothing visible matched.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}
