// Terminal detection: when stderr may animate (spinner, in-place countdowns) and when it gets plain lines.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context, OutStream } from '../../src/runtime/context.js';
import { detectTerminal } from '../../src/runtime/terminal/terminal.js';
import { StatusReporter } from '../../src/runtime/terminal/status.js';
import { collector } from './output-helpers.js';

function stream(isTTY: boolean, columns?: number): OutStream {
  return Object.assign(new PassThrough(), { isTTY, columns });
}

interface Streams {
  stdout?: OutStream;
  stderr?: OutStream;
  env?: Record<string, string | undefined>;
}

function ctx({
  stdout = stream(true, 100),
  stderr = stream(true, 100),
  env = { TERM: 'xterm-256color' },
}: Streams): Context {
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env,
    now: () => 0,
    sleep: async () => {},
    signal: new AbortController().signal,
  };
}

describe('detectTerminal: animate', () => {
  it('animates when both streams are terminals of known width', () => {
    expect(detectTerminal(ctx({}), undefined).animate).toBe(true);
  });

  it.each<[string, Streams]>([
    ['stdout piped to a program on the same terminal', { stdout: stream(false) }],
    ['stderr redirected', { stderr: stream(false) }],
    ['a pty that reports 0 columns (ora would loop forever)', { stderr: stream(true, 0) }],
    ['a pty that reports no width', { stderr: stream(true) }],
    ['TERM=dumb', { env: { TERM: 'dumb' } }],
    ['CI', { env: { TERM: 'xterm', CI: 'true' } }],
    [
      'RECALL_FEED_FORCE_TTY alone (tests capture stderr)',
      { stdout: stream(false), stderr: stream(false), env: { RECALL_FEED_FORCE_TTY: '1' } },
    ],
  ])('does not animate: %s', (_why, streams) => {
    expect(detectTerminal(ctx(streams), undefined).animate).toBe(false);
  });

  it('still counts TERM=dumb streams as terminals (tables), only without colour or animation', () => {
    const t = detectTerminal(ctx({ env: { TERM: 'dumb' } }), undefined);
    expect(t).toMatchObject({
      stdoutIsTTY: true,
      stderrIsTTY: true,
      columns: 100,
      color: 0,
      animate: false,
    });
  });
});

describe('detectTerminal: colour level (what chalk is given)', () => {
  const level = (env: Record<string, string | undefined>, flag?: boolean, stdout = stream(true, 100)) =>
    detectTerminal(ctx({ env, stdout }), flag).color;

  it.each<[string, Record<string, string | undefined>, boolean | undefined, boolean, number]>([
    ['a 16-colour terminal', { TERM: 'xterm' }, undefined, true, 1],
    ['a 256-colour terminal', { TERM: 'xterm-256color' }, undefined, true, 2],
    ['COLORTERM=truecolor', { TERM: 'xterm-256color', COLORTERM: 'truecolor' }, undefined, true, 3],
    ['a pipe', { TERM: 'xterm' }, undefined, false, 0],
    ['--no-color', { TERM: 'xterm' }, false, true, 0],
    ['NO_COLOR (chalk itself ignores it)', { TERM: 'xterm', NO_COLOR: '1' }, undefined, true, 0],
    ['an empty NO_COLOR, which no-color.org says to ignore', { TERM: 'xterm', NO_COLOR: '' }, undefined, true, 1],
    ['NO_COLOR over FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, undefined, true, 0],
    ['FORCE_COLOR into a pipe', { FORCE_COLOR: '1' }, undefined, false, 1],
    ['FORCE_COLOR=3 into a pipe', { FORCE_COLOR: '3' }, undefined, false, 3],
    ['FORCE_COLOR=0 on a terminal', { TERM: 'xterm', FORCE_COLOR: '0' }, undefined, true, 0],
    ['TERM=dumb', { TERM: 'dumb' }, undefined, true, 0],
    ['TERM=dumb with FORCE_COLOR', { TERM: 'dumb', FORCE_COLOR: '1' }, undefined, true, 1],
  ])('%s', (_why, env, flag, tty, expected) => {
    expect(level(env, flag, stream(tty, 100))).toBe(expected);
  });
});

describe('StatusReporter without animation', () => {
  it('writes waits as plain lines, no cursor control, and no in-place countdown', async () => {
    const err = collector();
    const status = new StatusReporter(err, {
      spinner: false,
      quiet: false,
      verbose: false,
      terminal: true,
      now: () => 0,
    });
    await status.start('fetching recalls…');
    status.progress('fetching recalls… 50 of 100');
    status.event({ type: 'wait', reason: 'pacing', window: 'minute', ms: 2500 });
    status.countdown('next poll', 60_000);
    status.note('done');
    status.stop();
    expect(err.text()).toBe('recall-feed: minute limit reached, resuming in 3 s\ndone\n');
  });
});

describe('StatusReporter off a terminal (cron)', () => {
  const waits = (status: StatusReporter) => {
    status.event({ type: 'wait', reason: 'pacing', window: 'minute', ms: 2500 });
    status.event({ type: 'wait', reason: 'rate_limit', limitType: 'hour', ms: 4000, resetAt: new Date(4000) });
    status.event({ type: 'wait', reason: 'retry', attempt: 1, ms: 1000, error: new Error('HTTP 503') });
  };

  it('a rate-limit wait is no problem to mail: only the retry of a failure is said', () => {
    const err = collector();
    waits(new StatusReporter(err, { spinner: false, quiet: false, verbose: false, now: () => 0 }));
    expect(err.text()).toBe('recall-feed: HTTP 503; retry 1, resuming in 1 s\n');
  });

  it('with -v every wait is said', () => {
    const err = collector();
    waits(new StatusReporter(err, { spinner: false, quiet: false, verbose: true, now: () => 0 }));
    expect(err.text()).toBe(
      [
        'recall-feed: minute limit reached, resuming in 3 s',
        'recall-feed: rate limited by the API (hour limit), resuming in 4 s',
        'recall-feed: HTTP 503; retry 1, resuming in 1 s',
        '',
      ].join('\n'),
    );
  });
});
