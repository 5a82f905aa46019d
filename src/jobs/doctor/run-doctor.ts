// Runs doctor's checks in order and prints them: a table on a terminal, JSON lines or one JSON document otherwise.
import { DoctorFindingsError } from '../../runtime/cli-errors.js';
import { settingSource } from '../../runtime/settings.js';
import { type ApiSession, proxyFromEnv } from '../../runtime/api-session.js';
import type { Session } from '../../runtime/session.js';
import { checkApiKey } from '../../api/request-target.js';
import { InsecureTransportError } from '../../api/api-errors.js';
import { H } from '../../runtime/error-hints.js';
import { plainLine } from '../../output/control-escapes.js';
import { maskSecrets } from '../../api/errors-mask.js';
import { runSecrets } from '../../runtime/config/run-secrets.js';
import { type CheckResult, fail, messageOf, overall, skip } from './check.js';
import { checkKey, checkQuota, checkReach } from './checks-api.js';
import { checkArchive } from './checks-archive.js';
import { checkSmtp, checkWebhook } from './checks-delivery.js';
import { checkConfig, checkLock, checkState } from './checks-local.js';
import { checkMetricsFile, checkMonitor } from './check-monitor.js';
import { checkCaseSla } from './check-case-sla.js';

export interface DoctorPlan {
  every: string | undefined;
  /** The archive is checked only when one is named: --db, else RECALL_FEED_DB or the profile's db. */
  db: { db: string | undefined; schema: string | undefined };
  state: string[];
  locks: string[];
  checkDelivery: boolean;
  webhook: string | undefined;
}

async function keyChecks(plan: DoctorPlan, session: Session) {
  const { settings } = session;
  if (!settings.sandbox && !settings.apiKey)
    return [
      fail('key', `no API key for profile '${settings.profile}'`, 'recall-feed config set api-key (reads stdin)'),
    ];
  if (!settings.sandbox) {
    try {
      checkApiKey(settings.apiKey as string);
    } catch (err) {
      return [fail('key', `malformed: ${messageOf(err)}`, 'set it again as one line: recall-feed config set api-key')];
    }
  }
  // The client (and with --sandbox the sandbox) stays open until the session closes.
  let api: ApiSession;
  try {
    api = await session.api({ needsKey: true });
  } catch (err) {
    // Plain http to a host that is not this machine: the client refused the key before any request carried it.
    if (err instanceof InsecureTransportError)
      return [fail('key', `not sent: ${messageOf(err)}`, H.insecure), skip('quota', 'the key was not sent')];
    throw err;
  }
  const key = await checkKey(api, session.ctx.now());
  return key.quota ? [...key.results, await checkQuota(api, plan.every, session.ctx)] : key.results;
}

export async function collectChecks(
  plan: DoctorPlan,
  session: Session,
  profileProblem?: Error,
): Promise<CheckResult[]> {
  const { ctx, settings } = session;
  const results: CheckResult[] = [await checkConfig(settings.profile, ctx, profileProblem)];
  const sla = await checkCaseSla(settings.profileCaseSla);
  if (sla) results.push(sla);
  if (settings.sandbox) {
    results.push(skip('api', 'with --sandbox the API is a local sandbox'));
  } else {
    const reach = await checkReach(settings, ctx);
    results.push(...reach.results);
    if (!reach.reached) results.push(skip('key', 'the API was not reached'), skip('quota', 'the API was not reached'));
  }
  if (settings.sandbox || results.every((r) => r.name !== 'api' || r.status !== 'fail'))
    results.push(...(await keyChecks(plan, session)));
  // Only an archive the run names (--db, RECALL_FEED_DB, the profile's), as the settings table resolves it.
  if (settingSource('db', { db: plan.db.db }, ctx.env, { db: settings.profileDb }) !== undefined)
    results.push(...(await checkArchive(session.archive(plan.db), ctx.now())));
  const monitor = await checkMonitor(settings, ctx);
  if (monitor) results.push(monitor);
  const metrics = checkMetricsFile(settings, ctx);
  if (metrics) results.push(metrics);
  for (const file of plan.state) results.push(await checkState(file));
  for (const file of plan.locks) results.push(await checkLock(file));
  if (plan.checkDelivery) {
    const hook = plan.webhook ?? settings.webhook;
    const from = plan.webhook !== undefined ? '--webhook' : (settings.webhookFrom?.source ?? 'webhook');
    results.push(
      hook
        ? await checkWebhook(hook, from, settings.timeoutMs, proxyFromEnv(ctx.env))
        : skip('webhook', 'no webhook configured'),
    );
    results.push(
      settings.smtpUrl ? await checkSmtp(settings.smtpUrl, settings.timeoutMs) : skip('smtp', 'no smtp-url configured'),
    );
  }
  return results;
}

/** `profileProblem`: why the profile's values were left out of the settings (the config check fails with it). */
export async function runDoctor(plan: DoctorPlan, session: Session, profileProblem?: Error): Promise<void> {
  // -f, else the -o extension, else a table on a terminal and JSON lines otherwise; never the profile's format.
  const output = await session.output({ status: 'file' });
  const results = await collectChecks(plan, session, profileProblem);
  const status = overall(results);
  // A check's detail may quote a server (a database's refusal echoing its password): the run's secrets are masked in
  // every check here, as in an error report. Names carry text from the archive (a source) and the command line (a
  // file): cleaned like the details.
  const secrets = runSecrets(session.ctx);
  const shown = (text: string) => plainLine(maskSecrets(text, secrets));
  const clean = results.map((r) => ({
    ...r,
    name: shown(r.name),
    detail: shown(r.detail),
    ...(r.hint ? { hint: shown(r.hint) } : {}),
  }));
  const doc = {
    people: () => renderTable(clean, session.terminal.columns),
    whole: { status, checks: clean },
    items: clean,
  };
  await output.write((sink) => sink.document(doc));
  if (status !== 'ok') throw new DoctorFindingsError(status);
}

const BORDER = [
  'top',
  'top-mid',
  'top-left',
  'top-right',
  'bottom',
  'bottom-mid',
  'bottom-left',
  'bottom-right',
  'left',
  'left-mid',
  'mid',
  'mid-mid',
  'right',
  'right-mid',
  'middle',
];

async function renderTable(results: CheckResult[], columns: number): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: ['check', 'status', 'detail'],
    // Borderless, two spaces between columns: the look of the project's other tables.
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    colWidths: [20, 8, Math.max(30, columns - 30)],
    wordWrap: true,
    chars: Object.fromEntries(BORDER.map((k) => [k, ''])),
  });
  for (const r of results) table.push([r.name, r.status, r.hint ? `${r.detail}\nhint: ${r.hint}` : r.detail]);
  return `${table.toString()}\n`;
}
