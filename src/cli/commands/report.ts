// `recall-feed report`: its flags and help; evidence of the period's cases, coverage and monitoring health, for a person to hand over.
import path from 'node:path';
import type { ReportFormat, ReportPlan } from '../../jobs/cases/run-report.js';
import { formatOfKindExtension, kindFormat, REPORT_FORMATS } from '../../output/format-kinds.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { addDbOption, parseDb } from './archive-options.js';
import { mapOf, parseWindow } from '../../runtime/options/option-parsers.js';
import type { OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';
import { onlyOnce } from './filter-flags.js';

/** -f (md for markdown too), else the -o file's extension, else markdown. */
export function reportFormat(flag: string | undefined, output: string | undefined): ReportFormat {
  if (flag !== undefined) {
    const format = kindFormat('report', REPORT_FORMATS, flag);
    if (format === undefined)
      throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}, not '${flag}'`);
    return format;
  }
  const ext = output ? path.extname(output) : '';
  return formatOfKindExtension('report', REPORT_FORMATS, ext) ?? 'markdown';
}

export function planReport(
  opts: ReportOptions,
  format: string | undefined,
  output: string | undefined,
  nowMs: number,
): ReportPlan {
  const { sinceUs, untilUs } = parseWindow(opts.since, opts.until, nowMs);
  const sinceMs = sinceUs === undefined ? undefined : Math.floor(sinceUs / 1000);
  const untilMs = untilUs === undefined ? undefined : Math.floor(untilUs / 1000);
  // The period never ends after now (report-data.ts, reportEnd): one starting after now would be empty, or inverted.
  if (sinceMs !== undefined && sinceMs > nowMs)
    throw new UsageError(`--since ${opts.since} is after now: the report's period would be empty`);
  if (opts.catalog === undefined && (opts.map !== undefined || opts.key !== undefined))
    throw new UsageError(`${opts.map !== undefined ? '--map' : '--key'} works with --catalog`);
  return {
    db: parseDb(opts),
    format: reportFormat(format, output),
    sinceMs,
    untilMs,
    catalog: opts.catalog,
    map: mapOf(opts.map),
    key: opts.key,
  };
}

/** `recall-feed report`: its flags and help; commander's types of them are the options' types. */
function declareReport(cmd: NewCommand) {
  const report = cmd
    .option(
      '--since <when>',
      'the period starts: a duration back from now (30d) or an ISO date (default: all)',
      onlyOnce('--since'),
    )
    .option('--until <when>', 'the period ends (default: now)', onlyOnce('--until'))
    .option('--catalog <file>', 'the catalogue the cases came from: rows checked, with and without identifiers')
    .option('--map <spec>', 'with --catalog: its columns by role, as for match')
    .option('--key <column>', 'with --catalog: the column naming each product, as for match --open-cases');
  return addDbOption(report).addHelpText(
    'after',
    `
html is one self-contained printable page, markdown the default on stdout, json every case with every
event, csv one row per case with its last event. -o writes the file atomically.

It opens with a summary table (matches first, then by severity; due and closing times, time to action),
and ends with its provenance (version, archive, the catalogue's sha256, the chain's head). With --catalog
it runs the matcher over the archive itself: a match without a case is listed and makes the statement
incomplete. The report never calls a product safe: the rows with no match get "no match was found ... as
of <time>", marked incomplete when monitoring had gaps. Nothing is cut: every case of the period is listed.

Examples:
  recall-feed report --since 30d --catalog products.csv -o recalls-evidence.html
  recall-feed report --since 2026-01-01 --until 2026-04-01 -f json -o q1.json
  recall-feed report -f csv -o cases.csv`,
  );
}

type ReportOptions = OptionsOf<ReturnType<typeof declareReport>>;

export default defineCommand({
  name: 'report',
  summary: 'evidence for an auditor or a marketplace: coverage, monitoring health, every case and its timeline',
  // -f is the report's own (html, markdown): the session is made without it, the settings never see it.
  formats: { kind: 'report', names: REPORT_FORMATS },
  flags: declareReport,
  plan: (opts, { globals, now }) => planReport(opts, globals.format, globals.output, now),
  uses: (plan) => ({
    output: { format: plan.format },
    archive: { db: plan.db, mode: 'read' as const },
    kept: plan.catalog ? [{ path: plan.catalog, what: 'catalogue' }] : [],
  }),
  run: async (plan, session) => (await import('../../jobs/cases/run-report.js')).runReport(plan, session),
});
