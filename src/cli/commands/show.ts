// `recall-feed show <id>`: its flags and help; one recall in full, from the archive or else the live window (src/jobs/archive).
import { UsageError } from '../../runtime/cli-errors.js';
import { addDbOption, parseDb } from './archive-options.js';
import type { ShowPlan } from '../../jobs/archive/plans.js';
import type { OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';

/** `recall-feed show`: its flags and help; commander's types of them are the options' types. */
function declareShow(cmd: NewCommand) {
  const show = cmd
    .argument('<id>', 'the recall id')
    .option('--history', 'every version the archive kept, and what changed between them');
  return addDbOption(show).addHelpText(
    'after',
    `
On a terminal every field is shown, wrapped to its width; -f json prints the record as the API sent it,
--history -f jsonl every stored version, oldest first.

Examples:
  recall-feed show 104835
  recall-feed show 104835 --history
  recall-feed show 104835 -f json | jq .involved_parties`,
  );
}

type ShowOptions = OptionsOf<ReturnType<typeof declareShow>>;

export default defineCommand({
  name: 'show',
  summary: 'one recall in full: from the archive, else from the live window',
  formats: { kind: 'record' },
  flags: declareShow,
  plan: (opts, { args }) => planShow(args[0] as string, opts),
  uses: (plan) => ({ output: {}, archive: { db: plan.db, mode: 'read' as const, optional: true as const } }),
  run: async (plan, session) => (await import('../../jobs/archive/show.js')).runShow(plan, session),
});

export function planShow(rawId: string, opts: ShowOptions): ShowPlan {
  const id = Number(rawId);
  if (!/^\d+$/.test(rawId.trim()) || !Number.isSafeInteger(id)) {
    throw new UsageError(`a recall id is a whole number, not '${rawId}'`, 'example: recall-feed show 104835');
  }
  return { id, history: opts.history ?? false, db: parseDb(opts) };
}
