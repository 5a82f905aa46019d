// `recall-feed health`: whether the API is up (no key needed); declared here, run by src/jobs/api/health.ts.
import { defineCommand } from './define-command.js';
import { STATUS_FORMATS } from '../../output/format-kinds.js';

export default defineCommand({
  name: 'health',
  summary: 'check that the API is up (no key needed); exit 0 healthy, 6 unhealthy or unreachable, 7 not the API',
  formats: { kind: 'record', names: STATUS_FORMATS },
  flags: (cmd) => cmd.addHelpText('after', '\nExamples:\n  recall-feed health\n  recall-feed health -f json'),
  plan: () => ({}),
  run: async (plan, session) => (await import('../../jobs/api/health.js')).runHealth(plan, session),
});
