// `recall-feed schema`: prints the JSON Schema of an output contract (src/jobs/contracts).
import { defineLocalCommand } from './define-command.js';

export default defineLocalCommand({
  name: 'schema',
  summary: 'print the JSON Schema (draft 2020-12) of an output contract: record, match, case, digest, ...',
  flags: (cmd) =>
    cmd
      .argument('[name]', 'the contract (see --list)')
      .option('--list', 'name the contracts')
      .addHelpText(
        'after',
        `
Each schema is JSON Schema draft 2020-12 with a versioned $id (urn:recall-feed:schema:<name>:v2), made from
the zod schema the code itself uses; the package ships them under schemas/ (docs/operations.md).

Examples:
  recall-feed schema --list
  recall-feed schema match > match.schema.json
  recall-feed schema webhook-teams`,
      ),
  plan: (opts, { args }) => ({ name: args[0], list: opts.list === true }),
  run: async ({ name, list }, ctx) => {
    const { runSchema } = await import('../../jobs/contracts/run-schema.js');
    runSchema(name, list, ctx);
  },
});
