// error-table.ts: every exported error class of src/ has a row (or is a CliError); each row gives its code, message and hint.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/api-errors.js';
import { CommandSyntaxError } from '../../src/actions/command-words.js';
import { EmailAddressError, SmtpUrlError } from '../../src/actions/email-smtp.js';
import { WebhookUrlError } from '../../src/actions/webhook-url.js';
import * as archive from '../../src/archive/archive-errors.js';
import * as cases from '../../src/archive/cases-errors.js';
import { DbTargetError } from '../../src/archive/db-target.js';
import { CatalogueColumnsError } from '../../src/match/catalogue-columns.js';
import { CatalogueChangedError, CatalogueReadError } from '../../src/match/catalogue.js';
import { OutputClosedError } from '../../src/output/backpressure.js';
import { ParquetValueError } from '../../src/output/parquet.js';
import * as cli from '../../src/runtime/cli-errors.js';
import * as config from '../../src/runtime/config/config-errors.js';
import { errorsByExitCode } from '../../src/runtime/error-docs.js';
import { describeError } from '../../src/runtime/error-reports.js';
import { ERROR_TABLE, rowFor } from '../../src/runtime/error-table.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Error classes without a row, on purpose, each with the reason. */
const NO_ROW: Record<string, string> = {
  RecordRejectedError:
    'never leaves the sandbox (core.ts answers it as InvalidParamsError); a row would load zod on failures',
  ResumableError: 'wraps a failure; its cause decides the code (error-reports.ts)',
  CatalogueChangedError:
    "a CatalogueReadError, said by that row (a usage error with its own hint); its class lets a watch's poll read the file again",
};

type ErrorClass = abstract new (...args: never[]) => Error;

/** Every exported error class of src/, found by importing each module that declares a subclass and reading its exports. */
async function exportedErrorClasses(): Promise<Map<ErrorClass, string>> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && /\bclass\s+\w+\s+extends\b/.test(readFileSync(path.join(SRC, f), 'utf8')),
  );
  const found = new Map<ErrorClass, string>();
  for (const file of files) {
    const mod: Record<string, unknown> = await import(pathToFileURL(path.join(SRC, file)).href);
    for (const [name, value] of Object.entries(mod))
      if (typeof value === 'function' && value.prototype instanceof Error) found.set(value as ErrorClass, name);
  }
  return found;
}

/** The CLI's own errors, and their abstract base. */
const isCliError = (c: ErrorClass) => c === cli.CliError || c.prototype instanceof cli.CliError;

/** The names of the classes with no row of their own that are no CliError and not excused. */
function withoutRow(classes: Map<ErrorClass, string>): string[] {
  const rowed = new Set<unknown>(ERROR_TABLE.map((r) => r.error));
  return [...classes]
    .filter(([c, name]) => !rowed.has(c) && !isCliError(c) && !Object.hasOwn(NO_ROW, name))
    .map(([, name]) => name)
    .sort();
}

describe('the error table', () => {
  it('says a catalogue changed while it was read by the CatalogueReadError row: exit 2, its own hint', () => {
    const report = describeError(new CatalogueChangedError('products.csv'));
    expect([report.code, report.message, report.hints]).toEqual([
      2,
      'the catalogue products.csv changed while it was read',
      ['run match again'],
    ]);
  });

  it('has a row for every exported error class of src/, or the class is a CliError', async () => {
    const classes = await exportedErrorClasses();
    const names = new Set(classes.values());
    // The scan finds the libraries' errors, the config store's, the jobs' CliErrors and the excused ones.
    for (const name of ['ApiError', 'ArchiveDatabaseError', 'ConfigValueError', 'CatalogueReadError', 'StateFileError'])
      expect(names).toContain(name);
    for (const name of Object.keys(NO_ROW)) expect(names, `NO_ROW names ${name}, which is gone`).toContain(name);
    expect(withoutRow(classes)).toEqual([]);
    // A new error class without a row is caught.
    class StrayError extends api.RecallFeedError {}
    expect(withoutRow(new Map([...classes, [StrayError, 'StrayError']]))).toEqual(['StrayError']);
  });

  it('names each class once, and no CliError (which carries its own code)', () => {
    const classes = ERROR_TABLE.map((r) => r.error);
    expect(new Set(classes).size).toBe(classes.length);
    for (const c of classes) expect(isCliError(c), c.name).toBe(false);
  });

  const init = (extra: Partial<api.ApiErrorInit> = {}): api.ApiErrorInit => ({
    status: 400,
    code: 'x',
    message: 'said',
    ...extra,
  });
  const KEY =
    'store a key with `recall-feed config set api-key` (reads it from stdin), or set RECALL_FEED_API_KEY; try `--sandbox` to run without one';
  const BASE_URL =
    "check --base-url (or RECALL_FEED_BASE_URL, the profile's base-url): it should be the API's root, e.g. https://api.deeprecall.io";
  const NOT_ARCHIVE = 'point --db at a recall-feed archive, or at a new file for sync to create';

  /** A representative error of each row, with the code, message and hints it must give. */
  const EXAMPLES: [Error, number, string, string[]][] = [
    [new api.RecallFeedError('odd'), 1, 'unexpected error: odd', []],
    [new api.ApiError(init({ status: 418, help: 'tea' })), 1, 'said', ['tea']],
    [new api.InvalidApiKeyError(init({ status: 401 })), 3, 'the API rejected the key: said', [KEY]],
    [
      new api.MalformedApiKeyError('bad key'),
      3,
      'bad key',
      [
        'the key comes from --api-key, RECALL_FEED_API_KEY or the profile: set it again as one line, e.g. `recall-feed config set api-key` (reads it from stdin)',
      ],
    ],
    [new api.PermissionDeniedError(init({ status: 403, help: 'ask' })), 4, 'said', ['ask']],
    [
      new api.UnauthorizedDataSourcesError(init({ details: { authorized: ['fda', 'cpsc'] } })),
      4,
      'said',
      ['this key may use: fda, cpsc'],
    ],
    [new api.NotFoundError(init({ status: 404 })), 4, 'said', []],
    [new api.ValidationError(init({ help: 'fix' })), 2, 'the API rejected the request: said', ['fix']],
    [new api.InvalidParamsError('no'), 2, 'no', []],
    [
      new api.InsecureTransportError('plain'),
      2,
      'plain',
      ['use an https base URL, or pass --allow-insecure-http if you really mean it'],
    ],
    [new api.RateLimitError(init({ status: 429, help: 'slow' })), 5, 'said', ['slow']],
    [
      new api.QuotaExhaustedError(init({ details: { reset_at: '2026-12-01T00:00:00Z' } })),
      5,
      'said; it resets on 2026-12-01T00:00:00.000Z',
      ['ask the operator for a higher quota'],
    ],
    [
      new api.WaitTooLongError('limit', { waitMs: 60_000, resetAt: new Date(Date.UTC(2026, 0, 1)), limitType: 'day' }),
      5,
      'limit (at 2026-01-01T00:00:00.000Z), longer than --max-wait allows',
      ['raise --max-wait to wait it out'],
    ],
    [new api.ServerError(init({ status: 500 })), 6, 'the API is unavailable: said', []],
    [new api.ServiceUnavailableError(init({ status: 503 })), 6, 'the API is unavailable: said', []],
    [new api.ConnectionError('refused'), 6, 'refused', []],
    [new api.TimeoutError('slow'), 6, 'slow', []],
    [
      new api.TlsError('tls', 'protocol'),
      6,
      'tls',
      ['check --base-url: is the server https? A plain-http server (such as a local sandbox) needs http://'],
    ],
    [
      new api.ProxyAuthError('407'),
      6,
      '407',
      [
        "put the proxy's user and password in its address (HTTPS_PROXY for an https API, HTTP_PROXY for http): http://user:password@host:port (percent-encode @ and :)",
      ],
    ],
    [new api.WrongAddressError(init({ status: 404 })), 7, 'said', [BASE_URL]],
    [
      new api.RedirectError({ ...init({ status: 301 }), location: 'https://new.example' }),
      7,
      'said',
      ['the API may have moved to https://new.example: if you trust that address, pass its root as --base-url'],
    ],
    [new api.InvalidResponseError('not json'), 7, 'invalid response from the API: not json', []],
    [new api.PaginationError('no cursor'), 7, 'invalid response from the API: no cursor', []],
    [
      new api.ResponseTooLargeError('too big', { limitBytes: 1 }),
      7,
      'invalid response from the API: too big',
      ['a smaller --page-size keeps pages small; raise --max-response-mb if the API really sends answers this large'],
    ],
    [new archive.ArchiveError('a.db', 'odd'), 2, 'odd', [NOT_ARCHIVE]],
    [new archive.NotAnArchiveError('a.db', 'why'), 2, 'a.db is not a recall-feed archive: why', [NOT_ARCHIVE]],
    [
      new archive.ArchiveMissingError('a.db'),
      2,
      'no archive at a.db',
      ['run `recall-feed sync` first to create it, or point --db or RECALL_FEED_DB at an archive'],
    ],
    [
      new archive.ArchiveTooNewError('a.db', 9, 5),
      2,
      'a.db was made by a newer recall-feed (archive schema 9; this one knows up to 5)',
      ['upgrade recall-feed to read it, or give another file with --db'],
    ],
    [
      new archive.ArchiveTooOldError('a.db', 1, 4),
      2,
      'a.db was made by an earlier recall-feed (archive schema 1; the digest needs 4)',
      ['run `recall-feed sync` once: it brings the archive forward'],
    ],
    [
      new archive.ArchiveOriginError('a.db', 'sandbox'),
      2,
      "a.db holds the sandbox's invented recalls: real ones are not mixed into it",
      ['sync real recalls into another archive (--db), or remove this sandbox archive'],
    ],
    [
      new archive.ArchiveCorruptError('a.db', 'bad page'),
      14,
      'the archive a.db is damaged (bad page)',
      ['restore it from a backup, or move it aside: the next `recall-feed sync` starts a new archive'],
    ],
    [
      new archive.ArchiveBusyError('a.db', 30),
      9,
      'the archive a.db is busy: another process kept it locked for more than 30 s',
      [
        'another program has it open: a recall-feed writing it (a sync, a cases step, match --open-cases), or, as a sync switches it to WAL, one still reading it (a query or stats paged into less, the sqlite3 shell, Datasette); `fuser` or `lsof` on the file shows which: run the command again once it has finished',
      ],
    ],
    [
      new archive.ArchiveDatabaseError('postgres://h/db', 'host', 'no such host'),
      13,
      'no such host',
      ['check the host name in the --db URL'],
    ],
    [
      new archive.SqliteDriverError('a.db', 'Could not locate the bindings file', '/opt/rf'),
      17,
      'the SQLite driver (better-sqlite3) could not be loaded: Could not locate the bindings file',
      [
        'an install problem, not a bug (a Node.js upgraded since the install, a node_modules from another machine): run `cd /opt/rf && npm rebuild better-sqlite3`, or reinstall recall-feed; a PostgreSQL --db needs no driver',
      ],
    ],
    [new cases.CaseNotFoundError(7), 2, 'no case 7 in the archive', ['list them: recall-feed cases --status all']],
    [new cases.CaseStepError('closed', 'reopen it'), 2, 'closed', ['reopen it']],
    [
      new cases.CaseLogBrokenError('event 3 edited'),
      12,
      'event 3 edited',
      [
        'the timeline from that event on cannot be trusted: compare with a backup of the archive, or a report handed over before',
      ],
    ],
    [
      new cases.CasesNotKeptError('a.db'),
      2,
      'a.db is from an earlier recall-feed (before cases): it holds no cases yet',
      [],
    ],
    [new DbTargetError('bad url'), 2, 'bad url', []],
    [new CommandSyntaxError('--exec needs a command'), 2, '--exec needs a command', []],
    [new WebhookUrlError('--webhook is not a URL'), 2, '--webhook is not a URL', []],
    [new SmtpUrlError('no server'), 2, 'no server', []],
    [new EmailAddressError('not an address'), 2, 'not an address', []],
    [new CatalogueReadError('cannot read c.csv', 'check it'), 2, 'cannot read c.csv', ['check it']],
    [new CatalogueColumnsError('no gtin column'), 2, 'no gtin column', []],
    [
      new ParquetValueError('parquet: column id'),
      7,
      'parquet: column id',
      ['the file was left as it was; -f jsonl or -f csv write records of any shape'],
    ],
    [new OutputClosedError(), 1, 'unexpected error: the output stream closed before all data was written', []],
    [new config.ConfigError('odd', { hint: 'h' }), 1, 'odd', ['h']],
    [new config.ConfigValueError('unknown key', { hint: 'keys: a, b' }), 2, 'unknown key', ['keys: a, b']],
    [
      new config.ConfigReadError('/c.json', 'bad'),
      2,
      'cannot read the config file /c.json: bad',
      ['fix or remove the file (it was left untouched), or point RECALL_FEED_CONFIG_DIR at another directory'],
    ],
    [
      new config.ConfigWriteError('/c.json', 'read-only'),
      10,
      'cannot write the config file /c.json: read-only',
      ['set RECALL_FEED_CONFIG_DIR to a writable directory'],
    ],
    [new config.ConfigShapeError('not an object'), 1, 'unexpected error: not an object', []],
    [new cli.MissingApiKeyError('no API key'), 3, 'no API key', [KEY]],
    [new cli.UnhealthyError('unhealthy'), 6, 'unhealthy', []],
    [new cli.InterruptedError('SIGINT'), 130, 'interrupted', []],
    [new cli.MatchesFoundError(2), 8, '2 matches', []],
    [new cli.DoctorFindingsError('fail'), 16, 'a doctor check failed', []],
  ];

  it('gives each row its exit code, message and hint (a representative error of each)', () => {
    for (const [err, code, message, hints] of EXAMPLES)
      expect(describeError(err), err.name).toMatchObject({ code, message, hints });
    const shown = new Set(EXAMPLES.map(([err]) => err.constructor));
    for (const r of ERROR_TABLE) expect(shown.has(r.error), `an example of ${r.error.name}`).toBe(true);
  });

  it('gives the variants a row decides by the error itself', () => {
    const pointless = new api.WaitTooLongError('limit', {
      waitMs: 400 * 86_400_000,
      resetAt: new Date(Date.UTC(2027, 0, 1)),
      limitType: 'month',
    });
    expect(describeError(pointless)).toEqual({
      code: 5,
      message: 'limit (on 2027-01-01T00:00:00.000Z): waiting for it is pointless',
      hints: [],
    });
    expect(describeError(new cli.DoctorFindingsError('warn'))).toEqual({
      code: 15,
      message: 'a doctor check warned',
      hints: [],
      silent: true,
    });
    expect(describeError(new cli.MatchesFoundError(1)).silent).toBe(true);
    expect(describeError(new api.QuotaExhaustedError(init())).message).toBe('said;');
    expect(describeError(new api.UnauthorizedDataSourcesError(init({ help: 'ask' }))).hints).toEqual(['ask']);
    expect(describeError(new api.RedirectError(init({ status: 302 }))).hints).toEqual([BASE_URL]);
    expect(describeError(new archive.ArchiveOriginError('a.db', 'api')).hints[0]).toMatch(
      /^with --sandbox or a sandbox key/,
    );
    expect(describeError(new archive.ArchiveDatabaseError('u', 'lock', 'held')).hints[0]).toMatch(
      /RECALL_FEED_DB_LOCK_WAIT/,
    );
    expect(describeError(new api.ApiError(init({ help: '' }))).hints).toEqual([]);
  });

  it("a subclass without a row takes its nearest base's; one with a row, its own; the rest fall through", () => {
    class LaterArchiveError extends archive.ArchiveMissingError {}
    expect(describeError(new LaterArchiveError('b.db'))).toMatchObject({
      code: 2,
      hints: [expect.stringMatching(/^run `recall-feed sync` first/)],
    });
    class LaterApiError extends api.ServerError {}
    expect(describeError(new LaterApiError(init()))).toEqual({
      code: 6,
      message: 'the API is unavailable: said',
      hints: [],
    });
    expect(rowFor(new archive.ArchiveMissingError('x'))?.error).toBe(archive.ArchiveMissingError);
    expect(rowFor(new Error('x'))).toBeUndefined();
    expect(rowFor('text')).toBeUndefined();
    expect(describeError(new Error('boom'))).toEqual({ code: 1, message: 'unexpected error: boom', hints: [] });
    expect(describeError(Object.assign(new Error('aborted'), { name: 'AbortError' })).code).toBe(130);
    const resumable = new cli.ResumableError(new api.TimeoutError('slow'), 'recall-feed feed --resume x', 'kept');
    expect(describeError(resumable)).toEqual({
      code: 6,
      message: 'slow',
      hints: ['kept'],
      command: 'recall-feed feed --resume x',
    });
  });

  it('lists, for the docs, the errors behind every code but 0', () => {
    const by = errorsByExitCode();
    expect([...by.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 130]);
    expect(by.get(17)).toEqual(['SqliteDriverError']);
    expect(by.get(2)).toContain('UsageError');
    expect(by.get(2)).toContain('ArchiveMissingError');
    expect(by.get(9)).toEqual(['ArchiveBusyError', 'BusyError']);
    expect(by.get(10)).toEqual(['CannotWriteError', 'ConfigWriteError']);
    expect(by.get(13)).toEqual(['ArchiveDatabaseError']);
    expect(by.get(15)).toEqual(['DoctorFindingsError']);
    expect(by.get(16)).toEqual(['DoctorFindingsError']);
  });
});
