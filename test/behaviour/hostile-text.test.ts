// A server whose every text carries terminal control codes (OSC title, clear screen, C1 CSI, OSC 8 links):
// none of them reaches stdout or stderr on a terminal, in records, error lines, hints, the resume command
// or the `next cursor:` line; csv into a pipe keeps the exact bytes.
import { describe, expect, it } from 'vitest';
import { type MainOptions as RunOptions, runMain } from '../helpers/in-process.js';
import { ALL_KEY } from '../helpers/sandbox.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';

/** Retitles the terminal, clears it, a one-byte CSI (red), and a hyperlink hiding its address. */
const EVIL =
  '\u001b]0;pwned\u0007 \u001b[2J \u009b31mred \u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\ end';
/** The bytes a terminal acts on: ESC, BEL and the C1 CSI. */
const CONTROLS = /[\u001b\u0007\u009b]/;

const record = (id: number) => ({
  id,
  data_source: 'us_cpsc',
  risk_severity: `high${EVIL}`,
  published_at: '2025-12-11T00:00:00',
  alert_title: `Kettle ${id} ${EVIL}`,
  product_name: `Kettle model ${EVIL}`,
});

function run(url: string, args: string[], opts: RunOptions = {}) {
  return runMain(['--base-url', url, ...args], { ...opts, env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env } });
}

/** A terminal, as the tests force one (colour too, so that colour codes are not mistaken for the attack). */
const TERMINAL = { RECALL_FEED_FORCE_TTY: '1', COLUMNS: '120' };

function expectNoControls(text: string) {
  expect(text).not.toMatch(CONTROLS);
}

describe('text from the server never drives the terminal', () => {
  it('error message and help: plain text on stderr; the record on stdout JSON-escaped', async () => {
    // Refused on the first request (a 400 after it, on a cursor the API sent, starts the window over instead).
    const refused = await scriptedServer([
      {
        status: 400,
        body: { detail: { error: 'validation_error', message: `bad ${EVIL}`, help: `try ${EVIL}`, details: {} } },
      },
    ]);
    const e = await run(refused.url, ['feed', '-f', 'jsonl'], { env: TERMINAL });
    expect(e.code).toBe(2);
    expectNoControls(e.stderr);
    expect(e.stdout).toBe('');
    expect(e.stderr).toContain(
      'error: the API rejected the request: bad ]0;pwned [2J 31mred ]8;;https://evil.example/\\click]8;;\\ end\n',
    );
    expect(e.stderr).toContain('hint: try ]0;pwned');
    const srv = await scriptedServer([{ body: feedBody([record(1)], { hasMore: false, next: null }) }]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl'], { env: TERMINAL });
    expect(r.code, r.stderr).toBe(0);
    expectNoControls(r.stdout);
    // The record itself went out, as JSON with every control escaped.
    expect(JSON.parse(r.stdout.trim())).toEqual(record(1));
    expect(r.stdout).toContain('\\u001b]0;pwned\\u0007');
    expect(r.stdout).toContain('\\u009b31mred');
  });

  it('the resume command never carries a --cursor the line would alter: it says so and runs the window again', async () => {
    const srv = await scriptedServer([
      { body: feedBody([record(1)], { hasMore: true, next: `c2${EVIL}` }) },
      { status: 500, body: { detail: { error: 'internal_error', message: `down ${EVIL}` } } },
    ]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl', '--retries', '0'], { env: TERMINAL });
    expect(r.code).not.toBe(0);
    expectNoControls(r.stderr);
    expect(r.stderr).toContain('down ]0;pwned');
    expect(r.stderr).toContain('the cursor after them holds characters a terminal cannot show, so it is not printed');
    expect(r.stderr).not.toContain('--cursor');
  });

  it('details.* in a hint (the sources a key may use)', async () => {
    const srv = await scriptedServer([
      {
        status: 403,
        body: {
          detail: {
            error: 'unauthorized_data_sources',
            message: `not yours ${EVIL}`,
            details: { authorized: [`us_cpsc${EVIL}`] },
          },
        },
      },
    ]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl', '--sources', 'safety_gate'], { env: TERMINAL });
    expect(r.code).not.toBe(0);
    expectNoControls(r.stderr);
    expect(r.stderr).toContain('hint: this key may use: us_cpsc]0;pwned');
  });

  it('the `next cursor:` line of a one-page run', async () => {
    const srv = await scriptedServer([{ body: feedBody([record(1)], { hasMore: true, next: `c2${EVIL}` }) }]);
    const r = await run(srv.url, ['feed', '-f', 'jsonl', '--no-paginate'], { env: TERMINAL });
    expect(r.code).toBe(0);
    expectNoControls(r.stderr);
    expect(r.stderr).toContain('next cursor not shown: it holds characters a terminal cannot show');
    expect(r.stderr).not.toContain('pwned');
  });

  it('a table on a terminal', async () => {
    const srv = await scriptedServer([{ body: feedBody([record(1), record(2)]) }]);
    const r = await run(srv.url, ['feed', '-f', 'table'], { env: { ...TERMINAL, FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    // Colour codes are ESC [ ... m; anything else starting with ESC, and BEL or C1 at all, is the attack.
    const withoutColour = r.stdout.replace(/\u001b\[\d+m/g, '');
    expectNoControls(withoutColour);
    expectNoControls(r.stderr);
    expect(r.stdout).toContain('Kettle 1');
  });

  it('csv on a terminal shows control codes as \\xNN; csv into a pipe keeps the exact bytes', async () => {
    const onTerminal = await run((await scriptedServer([{ body: feedBody([record(1)]) }])).url, ['feed', '-f', 'csv'], {
      env: TERMINAL,
    });
    expect(onTerminal.code).toBe(0);
    expectNoControls(onTerminal.stdout);
    expect(onTerminal.stdout).toContain('Kettle model \\x1b]0;pwned\\x07 \\x1b[2J \\x9b31mred');

    const piped = await run((await scriptedServer([{ body: feedBody([record(1)]) }])).url, ['feed', '-f', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain(`Kettle model ${EVIL}`);
  });
});
