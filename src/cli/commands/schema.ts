// `recall-feed schema`: prints the JSON Schema of an output contract (src/jobs/contracts).
import type { Program } from '../global-options.js';
import type { Context } from '../../runtime/context.js';
import { action } from './define-action.js';

export function registerSchema(program: Program, ctx: Context): void {
  program
    .command('schema')
    .description('print the JSON Schema (draft 2020-12) of an output contract: record, match, case, digest, ...')
    .argument('[name]', 'the contract (see --list)')
    .option('--list', 'name the contracts')
    .addHelpText(
      'after',
      `
Each schema is JSON Schema draft 2020-12 with a versioned $id (urn:recall-feed:schema:<name>:v1), made from
the zod schema the code itself uses; the package ships them under schemas/ (docs/operations.md).

Examples:
  recall-feed schema --list
  recall-feed schema match > match.schema.json
  recall-feed schema webhook-teams`,
    )
    .action(
      action(ctx, async () => async (opts, _globals, c, args) => {
        const { runSchema } = await import('../../jobs/contracts/run-schema.js');
        runSchema(args[0], opts.list === true, c);
      }),
    );
}
