// One monitored run: pings at its start and end (and after each --watch poll), the metrics file after each.
import path from 'node:path';
import { proxyFromEnv } from '../api-session.js';
import type { Context } from '../context.js';
import { previousSuccesses, writeMetricsFile } from './metrics.js';
import { Monitor } from './monitor.js';
import { parseMonitor } from '../settings-parsers.js';
import { maskPingBody, type OpsFlags, type OpsSettings } from './ops-settings.js';
import { type ArchiveFacts, archiveFacts } from './archive-facts.js';
import type { ObservedClient, RunCounts, RunHooks } from './run-hooks.js';
import { runMetrics } from './run-metrics.js';
import { StderrTail } from './stderr-tail.js';
import { isJsonLog } from '../terminal/json-log.js';
import { type KeptFile, refuseWritingOver, WritingOverError } from '../files/kept-files.js';
import { archiveTarget } from '../archive/archive-file.js';
import { diskFull, writeReason } from '../files/write-errors.js';

/**
 * Why the metrics file was not written. A file-system error names the folder it could not write in and the reason
 * in words: never the temporary file it was writing first, nor Node's errno text.
 */
function notWritten(err: unknown): string {
  const failed = (err as NodeJS.ErrnoException | undefined)?.path;
  const reason = writeReason(err);
  if (failed !== undefined && reason !== undefined) return `cannot write in ${path.dirname(failed)}: ${reason}`;
  // A write that fails on an open file carries no path: a full disk in the shared words, anything else as it says.
  return diskFull(err)?.reason ?? (err instanceof Error ? err.message : String(err));
}

/** The commands that report; the archive's cases are counted for those that use one. */
export type OpsCommand = 'feed' | 'sync' | 'match' | 'digest';

export interface OpsOptions extends OpsFlags {
  sources?: string;
  db?: string;
  dbSchema?: string;
  archive?: boolean;
  /** The files the run keeps that a flag names: the metrics file may be none of them. */
  state?: string;
  catalog?: string;
  learned?: string;
}

/**
 * The commands whose run falls back to the profile's `sources` without --sources (feed-plan.ts, sync-once.ts): their
 * label is the resolved setting. match and digest read every source then, and say `all`.
 */
const PROFILE_SOURCES: ReadonlySet<OpsCommand> = new Set(['feed', 'sync']);

function add(into: RunCounts, more: RunCounts): void {
  for (const k of ['fetched', 'new', 'updated'] as const) {
    if (more[k] !== undefined) into[k] = (into[k] ?? 0) + more[k];
  }
  // A queue's state, not a sum: the latest report stands.
  if (more.pending !== undefined) into.pending = more.pending;
  if (more.failed !== undefined) into.failed = (into.failed ?? 0) + more.failed;
}

interface Outcome {
  code: number;
  message: string;
}

export class RunOps implements RunHooks {
  readonly ctx: Context;
  private counted: RunCounts = {};
  private observed: ObservedClient | undefined;
  private readonly tail = new StderrTail();
  private readonly monitor: Monitor | undefined;
  private periodStart: number;
  private polls = 0;
  /** The run was refused for its metrics file (a file it keeps): nothing is written there. */
  private metricsRefused = false;

  private constructor(
    private readonly command: OpsCommand,
    private readonly opts: OpsOptions,
    private readonly settings: OpsSettings,
    base: Context,
  ) {
    const stderr = this.tail.wrap(base.stderr);
    this.ctx = Object.defineProperties(
      {},
      {
        ...Object.getOwnPropertyDescriptors(base),
        stderr: { value: stderr, enumerable: true },
        ops: { value: this, enumerable: true },
      },
    ) as Context;
    this.periodStart = base.now();
    if (settings.monitor) {
      // The settings table's check, as `config set monitor` makes it.
      const url = new URL(parseMonitor(settings.monitor, opts.monitor ? '--monitor' : 'the monitor setting'));
      this.monitor = new Monitor(url, proxyFromEnv(base.env), (m) => this.warn(m));
    }
  }

  /** For a run that reports somewhere (`reportsAnywhere(settings)`): ops-action loads this file only then. */
  static open(command: OpsCommand, opts: OpsOptions, settings: OpsSettings, ctx: Context): RunOps {
    return new RunOps(command, opts, settings, ctx);
  }

  client(client: ObservedClient): void {
    this.observed = client;
  }

  counts(counts: RunCounts): void {
    add(this.counted, counts);
  }

  async started(): Promise<void> {
    await this.monitor?.ping('start', `recall-feed ${this.command} started`);
  }

  /**
   * Refuses (exit 2) a metrics file that is a file the run keeps and a flag or setting names: its archive (resolved as
   * the run resolves it), -o, its state file, catalogue or learned file. Called before the run's settings or plan may
   * be refused, since the metrics are written at its end however it ends; the session refuses the rest (a learned
   * file beside the catalogue) the same way, and a run refused so writes no metrics there either.
   */
  refuseKeptFiles(output: string | undefined): void {
    const file = this.settings.metricsFile;
    if (!file) return;
    const { state, catalog, learned } = this.opts;
    const named: [string | undefined, string][] = [
      [this.archiveFile(), 'archive'],
      [output, 'output (-o)'],
      [state, 'state file'],
      [catalog, 'catalogue'],
      [learned, 'learned file'],
    ];
    const kept = named.flatMap(([path, what]): KeptFile[] => (path ? [{ path, what }] : []));
    refuseWritingOver('--metrics-file', file, kept);
  }

  /** The SQLite file of the archive the run would use; none when it is PostgreSQL or refused (the session says so). */
  private archiveFile(): string | undefined {
    try {
      const { db, dbSchema } = this.opts;
      const target = archiveTarget(
        { db, schema: dbSchema },
        this.ctx.env,
        this.settings.profileDb,
        this.settings.sandbox,
      );
      return target.kind === 'sqlite' ? target.file : undefined;
    } catch {
      return undefined;
    }
  }

  /** The end of one --watch poll: a ping (success or fail) and the metrics, then the next poll starts afresh. */
  async pollEnded(err?: unknown): Promise<void> {
    this.polls++;
    await this.report(err === undefined ? { code: 0, message: '' } : await this.outcomeOf(err));
  }

  /**
   * The end of the run. An interrupted --watch (the way one stops) sends no ping: each poll already
   * reported. Never throws: reporting never changes the run's exit code.
   */
  async ended(err?: unknown): Promise<void> {
    if (err instanceof WritingOverError && err.flag === '--metrics-file') this.metricsRefused = true;
    try {
      const outcome = err === undefined ? { code: 0, message: '' } : await this.outcomeOf(err);
      if (this.polls > 0 && outcome.code === 130) return;
      await this.report(outcome);
    } finally {
      await this.monitor?.close();
    }
  }

  private async report({ code, message }: Outcome): Promise<void> {
    const endedMs = this.ctx.now();
    const counts = this.counted;
    const startedMs = this.periodStart;
    this.counted = {};
    this.periodStart = endedMs;
    const lines = this.tail.take();
    if (this.monitor) {
      const body = maskPingBody(this.summary(code, message, counts, endedMs - startedMs, lines), this.settings.secrets);
      await this.monitor.ping(code === 0 ? 'success' : 'fail', body);
    }
    if (this.settings.metricsFile && !this.metricsRefused) await this.writeMetrics(code, counts, startedMs, endedMs);
  }

  private summary(code: number, message: string, counts: RunCounts, ms: number, lines: string[]): string {
    const numbers = Object.entries(counts).map(([k, v]) => `${k} ${v}`);
    const why = message === '' ? '' : `: ${message}`;
    const head = `recall-feed ${this.command}: ${code === 0 ? 'ok' : `exit code ${code}${why}`} in ${(ms / 1000).toFixed(1)} s`;
    const text = [numbers.length ? `${head}; ${numbers.join(', ')}` : head];
    if (lines.length) text.push('', 'last lines of stderr:', ...lines);
    return `${text.join('\n')}\n`;
  }

  private async writeMetrics(code: number, counts: RunCounts, startedMs: number, endedMs: number): Promise<void> {
    const file = this.settings.metricsFile as string;
    try {
      const { facts, unread } = await this.archiveFacts();
      const sources = this.sources() ?? ['all'];
      const metrics = runMetrics({
        command: this.command,
        sources,
        startedMs,
        endedMs,
        exitCode: code,
        counts,
        client: this.observed,
        cases: facts?.cases,
        outbox: facts?.outbox,
        previous: await previousSuccesses(file),
      });
      await writeMetricsFile(file, metrics);
      if (unread !== undefined) this.warn(`metrics file ${file} written without the archive's series: ${unread}`);
    } catch (err) {
      this.warn(`metrics file ${file} not written: ${notWritten(err)}`);
    }
  }

  /**
   * The archive's numbers for the metrics; none, and why, when it cannot be read (a PostgreSQL server that does not
   * answer): the file is written all the same, with the run's outcome.
   */
  private async archiveFacts(): Promise<{ facts?: ArchiveFacts; unread?: string }> {
    try {
      return { facts: await archiveFacts(this.command, this.opts, this.settings, this.ctx) };
    } catch (err) {
      const { describeError } = await import('../error-reports.js');
      return { unread: describeError(err, this.settings.secrets).message };
    }
  }

  /** The sources the run asked for: --sources, else the profile's where the command falls back to them. */
  private sources(): string[] | undefined {
    const given = this.opts.sources
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (given?.length) return given;
    return PROFILE_SOURCES.has(this.command) ? this.settings.profileSources : undefined;
  }

  /** The exit code and the one-line message main() will print for `err` (the same mapping). */
  private async outcomeOf(err: unknown): Promise<Outcome> {
    const { describeError } = await import('../error-reports.js');
    const report = describeError(err);
    return { code: report.code, message: report.message };
  }

  private warn(message: string): void {
    const stderr = this.ctx.stderr;
    if (isJsonLog(stderr)) stderr.log('warn', message);
    else stderr.write(`warning: ${message}\n`);
  }
}
