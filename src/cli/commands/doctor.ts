// `recall-feed doctor`: its flags and help; the read-only checks a job needs run in src/jobs/doctor.
import { parseDuration } from '../../api/duration.js';
import { STATUS_FORMATS } from '../../output/format-kinds.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { EXIT } from '../../runtime/exit-codes.js';
import type { DoctorPlan } from '../../jobs/doctor/run-doctor.js';
import type { OptionsOf } from './define-action.js';
import { defineLocalCommand, type NewCommand } from './define-command.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `recall-feed doctor`: its flags and help; commander's types of them are the options' types. */
function declareDoctor(cmd: NewCommand) {
  return cmd
    .option('--every <duration>', "the job's rhythm, e.g. 15m: forecast its monthly requests against the quota")
    .option('--db <file-or-url>', 'check this archive (default: RECALL_FEED_DB or the profile db, if set)')
    .option('--db-schema <name>', 'PostgreSQL schema of the archive')
    .option('--state <file>', 'check a --state file (repeatable)', collect)
    .option('--lock <file>', 'check the run lock of an output or state file (repeatable)', collect)
    .option('--check-delivery', 'also connect to the SMTP server and the webhook (nothing is sent)')
    .option('--webhook <url>', 'with --check-delivery: this webhook instead of the configured one')
    .addHelpText(
      'after',
      `
Each check prints a name, a status (ok, warn, fail), a detail and a hint. Two requests reach the API
with the key (sources, and one feed record for the quota) and count against the quota.

Exit codes: ${EXIT.ok} every check ok, ${EXIT.doctorWarnings} warnings only, ${EXIT.doctorFailed} at least one check failed.

Examples:
  recall-feed doctor
  recall-feed doctor --every 15m --db recalls.db --state seen.json -f json
  recall-feed doctor --check-delivery`,
    );
}

type DoctorOptions = OptionsOf<ReturnType<typeof declareDoctor>>;

/** What doctor checks, from its flags; a bad --every is a usage error before any check. */
export function planDoctor(opts: DoctorOptions): DoctorPlan {
  if (opts.every !== undefined && !((parseDuration(opts.every) ?? 0) > 0))
    throw new UsageError(`--every must be a duration such as 15m or 1h, not '${opts.every}'`);
  return {
    every: opts.every,
    db: { db: opts.db, schema: opts.dbSchema },
    state: opts.state ?? [],
    locks: opts.lock ?? [],
    checkDelivery: opts.checkDelivery === true,
    webhook: opts.webhook,
  };
}

export default defineLocalCommand({
  name: 'doctor',
  summary: 'check the config, key, quota, clock, proxy, archive and files a job needs (read-only)',
  formats: { kind: 'record', names: STATUS_FORMATS },
  flags: declareDoctor,
  plan: (opts, { globals }) => ({ plan: planDoctor(opts), globals }),
  // Its own session: a config file that cannot be read is one of doctor's findings (its config check), not the
  // end of the run.
  run: async ({ plan, globals }, ctx) => {
    const { runDoctor } = await import('../../jobs/doctor/run-doctor.js');
    const { loadSettingsDespiteProfile, runIn, sessionWith } = await import('../../runtime/session.js');
    const { settings, profileProblem } = await loadSettingsDespiteProfile(globals, ctx);
    await runIn(sessionWith(settings, globals, ctx), (session) => runDoctor(plan, session, profileProblem));
  },
});
