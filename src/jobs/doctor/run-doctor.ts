// Runs doctor's checks in order and prints them: a table on a terminal, JSON lines or one JSON document otherwise.
import type { Context } from '../../runtime/context.js';
import { DoctorFindingsError } from '../../runtime/cli-errors.js';
import { archiveTarget } from '../../runtime/archive/archive-file.js';
import { proxyFromEnv } from '../../runtime/api-session.js';
import { loadSettings, openSession } from '../../runtime/session.js';
import type { GlobalFlags, Settings } from '../../runtime/settings.js';
import { checkApiKey } from '../../api/request-target.js';
import { detectTerminal } from '../../runtime/terminal/terminal.js';
import { plainLine } from '../../output/control-escapes.js';
import { canonicalFormat } from '../../output/format-kinds.js';
import { type CheckResult, fail, messageOf, overall, skip } from './check.js';
import { checkKey, checkQuota, checkReach } from './checks-api.js';
import { checkArchive } from './checks-archive.js';
import { checkSmtp, checkWebhook } from './checks-delivery.js';
import { checkConfig, checkLock, checkState } from './checks-local.js';
import { checkMonitor } from './check-monitor.js';

export interface DoctorPlan {
  every: string | undefined;
  /** The archive is checked only when one is named: --db, else RECALL_FEED_DB or the profile's db. */
  db: { db: string | undefined; schema: string | undefined };
  state: string[];
  locks: string[];
  checkDelivery: boolean;
  webhook: string | undefined;
}

async function keyChecks(settings: Settings, globals: GlobalFlags, plan: DoctorPlan, ctx: Context) {
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
  const session = await openSession(globals, ctx, { needsKey: true, settings });
  try {
    const key = await checkKey(session);
    if (key.status === 'fail') return [key, skip('quota', 'the key was refused')];
    return [key, await checkQuota(session, plan.every, ctx)];
  } finally {
    await session.close();
  }
}

export async function collectChecks(plan: DoctorPlan, globals: GlobalFlags, ctx: Context): Promise<CheckResult[]> {
  const results: CheckResult[] = [await checkConfig(globals, ctx)];
  const settings = await loadSettings(globals, ctx);
  if (settings.sandbox) {
    results.push(skip('api', 'with --sandbox the API is a local sandbox'));
  } else {
    const reach = await checkReach(settings, ctx);
    results.push(...reach.results);
    if (!reach.reached) results.push(skip('key', 'the API was not reached'), skip('quota', 'the API was not reached'));
  }
  if (settings.sandbox || results.every((r) => r.name !== 'api' || r.status !== 'fail'))
    results.push(...(await keyChecks(settings, globals, plan, ctx)));
  const named = plan.db.db ?? ctx.env.RECALL_FEED_DB ?? settings.profileDb;
  if (named !== undefined) {
    const target = archiveTarget(plan.db, ctx.env, settings.profileDb, settings.sandbox);
    results.push(...(await checkArchive(target, ctx.now())));
  }
  const monitor = await checkMonitor(globals, ctx);
  if (monitor) results.push(monitor);
  for (const file of plan.state) results.push(await checkState(file));
  for (const file of plan.locks) results.push(await checkLock(file));
  if (plan.checkDelivery) {
    const hook = plan.webhook ?? settings.webhook;
    results.push(
      hook
        ? await checkWebhook(hook, settings.timeoutMs, proxyFromEnv(ctx.env))
        : skip('webhook', 'no webhook configured'),
    );
    results.push(
      settings.smtpUrl ? await checkSmtp(settings.smtpUrl, settings.timeoutMs) : skip('smtp', 'no smtp-url configured'),
    );
  }
  return results;
}

export async function runDoctor(plan: DoctorPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const terminal = detectTerminal(ctx, globals.color);
  // -f was checked against doctor's formats (table, json, jsonl) before the command ran (format-choices.ts),
  // in any case: `JSON` is json here too.
  const format =
    globals.format !== undefined ? canonicalFormat('record', globals.format) : terminal.stdoutIsTTY ? 'table' : 'jsonl';
  const results = await collectChecks(plan, globals, ctx);
  const status = overall(results);
  // Names carry text from the archive (a source) and the command line (a file): cleaned like the details.
  const clean = results.map((r) => ({
    ...r,
    name: plainLine(r.name),
    detail: plainLine(r.detail),
    ...(r.hint ? { hint: plainLine(r.hint) } : {}),
  }));
  if (format === 'json') ctx.stdout.write(`${JSON.stringify({ status, checks: clean }, null, 2)}\n`);
  else if (format === 'jsonl') for (const r of clean) ctx.stdout.write(`${JSON.stringify(r)}\n`);
  else ctx.stdout.write(await renderTable(clean, terminal.columns));
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
