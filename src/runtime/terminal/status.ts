// Everything a command says on stderr while it works: progress, countdowns, retries, --verbose request lines.
import type { ClientEvent } from '../../api/client.js';
import type { OutStream } from '../context.js';
import { plainLine } from '../../output/control-escapes.js';
import { isJsonLog } from './json-log.js';

export interface StatusOptions {
  /** Spinner and live countdowns (Terminal.animate decides). Otherwise plain lines. */
  spinner: boolean;
  quiet: boolean;
  verbose: boolean;
  /** stderr is a terminal (someone watches): a rate-limit wait is said even without animation. */
  terminal?: boolean;
  now: () => number;
  /** Masks the run's secrets in text a server chose (config/run-secrets.ts); none by default. */
  mask?: (text: string) => string;
}

interface Spinner {
  text: string;
  start(): unknown;
  stop(): unknown;
  clear(): unknown;
  render(): unknown;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export class StatusReporter {
  private spinner: Spinner | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** Numbers JSON.parse changed are said once a run: every page of a feed may carry the same field. */
  private inexactSaid = false;
  /** Bytes that are not UTF-8 likewise. */
  private notUtf8Said = false;

  constructor(
    private readonly stderr: OutStream,
    private readonly opts: StatusOptions,
  ) {}

  /** Loads the spinner only when it will be shown (ora costs ~55 ms to import). */
  async start(text: string): Promise<void> {
    if (!this.opts.spinner || this.opts.quiet) return;
    const { default: ora } = await import('ora');
    this.spinner = ora({ stream: this.stderr, text, isEnabled: true, discardStdin: false }) as unknown as Spinner;
    this.spinner.start();
  }

  /** Progress shown only on a terminal: it would be noise in a cron log. */
  progress(text: string): void {
    this.clearCountdown();
    if (this.spinner) this.spinner.text = text;
  }

  /** A line that stays: on a terminal above the spinner, otherwise as is. Silent with --quiet. Plain text (see write). */
  note(text: string): void {
    if (this.opts.quiet) return;
    this.write(text);
  }

  /** Good news: said on a terminal, with -v and in the JSON log; off a terminal silent (cron mails only problems). */
  success(text: string): void {
    if (this.opts.quiet || (!this.opts.terminal && !this.opts.verbose && !isJsonLog(this.stderr))) return;
    this.write(text);
  }

  /** `warning: <text>`: printed even with --quiet, which silences progress, not problems. */
  warn(text: string): void {
    this.write(`warning: ${text}`);
  }

  /** Turns a client event into a --verbose line or a wait message. */
  event(e: ClientEvent): void {
    if (e.type === 'inexact') {
      if (this.inexactSaid) return;
      this.inexactSaid = true;
      const changes = e.numbers.map((n) => `${n.sent} as ${n.kept}`).join(', ');
      this.warn(
        `the API sent numbers no double holds exactly; each is kept and written as the nearest one (${changes})`,
      );
      return;
    }
    if (e.type === 'not-utf8') {
      if (this.notUtf8Said) return;
      this.notUtf8Said = true;
      this.warn("the API's answer held bytes that are not UTF-8; each was replaced with U+FFFD");
      return;
    }
    if (e.type === 'response') {
      if (this.opts.verbose && isJsonLog(this.stderr)) {
        const fields = { method: 'GET', path: e.path, query: e.query, status: e.status, ms: Math.round(e.ms) };
        this.stderr.log('debug', `GET ${e.path}${e.query} ${e.status}`, {
          ...fields,
          minute_budget: e.minuteRemaining,
        });
      } else if (this.opts.verbose) {
        this.write(`GET ${e.path}${e.query} ${e.status} ${Math.round(e.ms)}ms minute-budget=${e.minuteRemaining}`);
      }
      return;
    }
    if (e.reason === 'pacing' || e.reason === 'rate_limit') {
      // A rate-limit wait the run sits out is no problem: off a terminal (cron mails whatever reaches stderr)
      // it is said only with -v, in the JSON log and in the metrics (recall_feed_rate_limit_wait_seconds).
      if (!this.spinner && !this.opts.terminal && !this.opts.verbose && !isJsonLog(this.stderr)) return;
      this.wait(
        e.reason === 'pacing' ? `${e.window} limit reached` : `rate limited by the API (${e.limitType} limit)`,
        e.ms,
      );
    } else this.wait(`${this.opts.mask?.(e.error.message) ?? e.error.message}; retry ${e.attempt}`, e.ms);
  }

  /** On a terminal: a status line that counts down to `ms` from now. Elsewhere: nothing. */
  countdown(what: string, ms: number): void {
    if (this.spinner) this.wait(what, ms, 'next poll in');
  }

  /** Runs `fn` with the spinner line cleared, so rows written to the same terminal are not garbled. */
  async around<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.spinner) return fn();
    this.spinner.clear();
    try {
      return await fn();
    } finally {
      this.spinner?.render();
    }
  }

  stop(): void {
    this.clearCountdown();
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /** Off a terminal one plain line per wait; on a terminal a countdown that ticks each second. */
  private wait(what: string, ms: number, verb = 'resuming in'): void {
    if (this.opts.quiet) return;
    if (isJsonLog(this.stderr)) {
      this.stderr.log('info', `${what}, ${verb} ${seconds(ms)} s`, { wait_ms: Math.round(ms) });
      return;
    }
    if (!this.spinner) {
      this.stderr.write(`recall-feed: ${plainLine(what)}, ${verb} ${seconds(ms)} s\n`);
      return;
    }
    this.clearCountdown();
    const until = this.opts.now() + ms;
    const spinner = this.spinner;
    const shown = plainLine(what);
    const tick = () => {
      spinner.text = `${shown}, ${verb} ${seconds(until - this.opts.now())} s`;
    };
    tick();
    this.ticker = setInterval(tick, 1000);
    this.ticker.unref();
  }

  /**
   * Lines here carry text from the network (a retried error's message, `next cursor:`, a warning naming
   * a field): control codes are removed, so a server never drives the terminal.
   */
  private write(line: string): void {
    const text = plainLine(this.opts.mask?.(line) ?? line);
    // Above the spinner, which is drawn again below the line.
    this.spinner?.clear();
    this.stderr.write(`${text}\n`);
    this.spinner?.render();
  }

  private clearCountdown(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
