// `recall-feed health`: whether the API is up (no key needed); declared here, run by src/jobs/api/health.ts.
import type { Program } from '../global-options.js';
import { writesFormats } from '../format-choices.js';
import { action, inSession } from './define-action.js';
import type { Context } from '../../runtime/context.js';

export function registerHealth(program: Program, ctx: Context): void {
  const health = program.command('health');
  writesFormats(health, 'record', ['table', 'json', 'jsonl']);
  health
    .description('check that the API is up (no key needed); exit 0 healthy, 6 unhealthy or unreachable')
    .addHelpText('after', '\nExamples:\n  recall-feed health\n  recall-feed health -f json')
    .action(
      action(ctx, async () => async (_opts, globals, c) => {
        const { runHealth } = await import('../../jobs/api/health.js');
        await inSession(globals, c, {}, (session) => runHealth({}, session));
      }),
    );
}
