// Bad input, in process: exit 2 naming the flag, and not a single request reaches the sandbox.
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 20 });
});

// x.json is never written (refused first); it stands for a temp path, so a mistake could not land in the repo.
const OUT_DIR = tempDir();
const JSON_OUT = path.join(OUT_DIR, 'x.json');
const inTemp = (args: string[]) => args.map((a) => (/^x\.[a-z.]+$/.test(a) ? path.join(OUT_DIR, a) : a));

const BAD: [string[], RegExp][] = [
  [['feed', '--hours', '0'], /--hours must be a whole number from 1 to 24, not '0'/],
  [['feed', '--hours', '25'], /--hours must be a whole number from 1 to 24, not '25'/],
  [['feed', '--hours', '1.5'], /--hours must be a whole number from 1 to 24/],
  [['feed', '--hours', 'abc'], /--hours must be a whole number from 1 to 24, not 'abc'/],
  [['feed', '--page-size', '0'], /--page-size must be a whole number from 1 to 500/],
  [['feed', '--page-size', '501'], /--page-size must be a whole number from 1 to 500/],
  [['feed', '--sort', 'title'], /--sort must be one of published_at, created_in_db_at, updated_at, not 'title'/],
  [['feed', '--order', 'up'], /--order must be one of desc, asc, not 'up'/],
  [['feed', '-f', 'xml'], /--format must be one of table, jsonl, json, csv, parquet, not 'xml'/],
  [['feed', '--sources', ''], /--sources needs at least one data source ID/],
  [['feed', '--sources', ' , '], /--sources needs at least one data source ID/],
  [['feed', '--sources', 'US CPSC'], /--sources: 'US CPSC' is not a data source ID/],
  [['feed', '--custom', '../admin'], /--custom '..\/admin' is not valid/],
  [['feed', '--custom', 'Demo'], /--custom 'Demo' is not valid/],
  [['feed', '--max', '0'], /--max must be a whole number 1 or more, not '0'/],
  [['feed', '--max', '-3'], /--max must be a whole number 1 or more/],
  [['feed', '--max', 'ten'], /--max must be a whole number 1 or more/],
  // Number() would take these; a count is plain decimal digits.
  [['feed', '--max', '1e3'], /--max must be a whole number 1 or more, not '1e3'/],
  [['feed', '--hours', '0x10'], /--hours must be a whole number from 1 to 24, not '0x10'/],
  [['feed', '--page-size', '1.0'], /--page-size must be a whole number from 1 to 500, not '1.0'/],
  [['feed', '--max', '+5'], /--max must be a whole number 1 or more, not '\+5'/],
  [['feed', '--bogus'], /unknown option '--bogus'/],
  [['feed', '--append'], /--append works with -o <file>/],
  [['feed', '--resume'], /--resume works with -o <file>/],
  [['feed', '-f', 'json', '-o', 'x.json', '--append'], /--append cannot add to a json file/],
  [['feed', '-o', 'x.json', '--append'], /--append cannot add to a json file/],
  [['feed', '--watch', '--max', '5'], /--watch cannot be combined with --max/],
  [['feed', '--watch', '--interval', '0.5'], /--interval must be a number of seconds 1 or more/],
  [['feed', '--interval', '5'], /--interval works with --watch/],
  [['feed', '--state', 'never-written.json', '--cursor', 'abc'], /--state cannot be combined with --cursor/],
  [['feed', '--state', 'never-written.json', '--no-paginate'], /--state cannot be combined with --no-paginate/],
  [['feed', '--state', 'never-written.json', '-o', 'x.csv', '--resume'], /--state cannot be combined with --resume/],
  [['--timeout', '0', 'feed'], /--timeout must be a number of seconds greater than 0/],
  [['--retries', '99', 'feed'], /--retries must be a whole number from 0 to 20/],
  // An empty value is a mistake, never a way to ask for the default.
  [['--timeout=', 'feed'], /^error: --timeout needs a value\nhint: a number of seconds, e\.g\. --timeout 30\n$/],
  [['--max-wait=', 'feed'], /^error: --max-wait needs a value\n/],
  [['--retries=', 'feed'], /^error: --retries needs a value\n/],
  [['--pace', '', 'feed'], /^error: --pace needs a value\n/],
  [
    ['--timeout', '0.0001', 'feed'],
    /^error: --timeout must be at least 0\.001 s \(timers count whole milliseconds\), not '0\.0001'\n$/,
  ],
  [
    ['query', '--since', '2026-02-30'],
    /^error: --since must be a duration such as 36h or 7d, or an ISO date or date-time, not '2026-02-30'\n/,
  ],
  [
    ['feed', '-o', 'x.json.gz'],
    /^error: recall-feed does not write \.gz files \(-o \S+x\.json\.gz\)\nhint: pipe it to the compressor instead/,
  ],
  [
    ['feed', '-o', 'x.tsv'],
    /^error: recall-feed does not write \.tsv files \(-o \S+x\.tsv\)\nhint: write csv, json, jsonl or parquet/,
  ],
  [['--pace', 'minute=ten', 'feed'], /--pace must look like/],
  [['--base-url', 'not a url', 'feed'], /--base-url is not a URL/],
  // PostgreSQL's driver decodes the password: a % that starts no escape is refused here, the URL never repeated.
  [
    ['query', '--db', 'postgres://alice:100%pure@127.0.0.1:1/recalls'],
    /^error: postgres:\/\/alice:\*\*\*\*@127\.0\.0\.1:1\/recalls: its user name, password or database name holds a % escape that is no UTF-8 text \(write a % as %25\)\n/,
  ],
  [['query', '--db', 'postgres://al%ice@127.0.0.1:1/recalls'], /holds a % escape that is no UTF-8 text/],
  [['query', '--db', 'postgres://u:caf%E9@127.0.0.1:1/recalls'], /holds a % escape that is no UTF-8 text/],
  // A URL's user name and password are never repeated, parseable or not.
  [
    ['--base-url', 'https://gwuser:S3cr#tPassw0rd@gw.example.com/api', 'feed'],
    /^error: --base-url is not a URL: 'https:\/\/…@gw\.example\.com\/api'\n/,
  ],
  [
    ['--base-url', 'ftp://gwuser:Passw0rd@gw.example.com', 'feed'],
    /^error: --base-url must be an http or https URL, not 'ftp:\/\/…@gw\.example\.com'\n/,
  ],
  [['sources', '--columns', ','], /--columns needs at least one column name/],
  [
    ['feed', '--columns', 'id,prodcut_name'],
    /^error: --columns has an unknown column: 'prodcut_name'\nhint: did you mean product_name \(for 'prodcut_name'\)\?\n$/,
  ],
  [['nonsense'], /unknown command 'nonsense'/],
  [['sandbox', '--faults', '500=2'], /--faults: 500 must be a share from 0 to 1/],
  [['sandbox', '--port', '99999'], /--port must be a whole number from 0 to 65535, not '99999'/],
];

describe('bad input', () => {
  it.each(BAD)('%j exits 2 with a message naming the flag, sending nothing', async (args, message) => {
    sandbox.clearRequests();
    const r = await runMainAgainst(sandbox, inTemp(args));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(sandbox.requests()).toEqual([]);
    expect(existsSync(JSON_OUT)).toBe(false);
    expect(readdirSync(OUT_DIR)).toEqual([]);
  });

  it('config set db refuses a URL whose password holds a % that starts no escape, without repeating it', async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-config-') };
    const r = await runMain(['config', 'set', 'db'], { env, stdin: 'postgres://alice:100%pure@127.0.0.1:1/recalls\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: invalid value for db: postgres://alice:****@127.0.0.1:1/recalls: its user name, password or database name holds a % escape that is no UTF-8 text (write a % as %25)\n',
    );
    expect(r.stderr).not.toContain('pure');
    expect((await runMain(['config', 'get', 'db'], { env })).stdout).not.toContain('127.0.0.1');
  });

  it("a refused value never quotes the profile's key: its secrets are known before the flags are checked", async () => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-config-') };
    expect((await runMain(['config', 'set', 'api-key'], { env, stdin: `${ALL_KEY}\n` })).code).toBe(0);
    const r = await runMain(['--base-url', `not a url ${ALL_KEY}`, 'feed'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --base-url is not a URL: 'not a url /);
    expect(r.stderr).not.toContain(ALL_KEY);
  });

  it('refuses to send the key over plain http to a non-loopback host, before any request', async () => {
    const r = await runMain(['--base-url', 'http://api.example.com', 'feed'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: refusing to send the API key over plain http to api\.example\.com\n/);
    expect(r.stderr).toMatch(/hint: use an https base URL, or pass --allow-insecure-http/);
    expect(r.stderr).not.toContain(ALL_KEY);
  });

  it('without any key: exit 3, a hint on how to store one, and no request', async () => {
    sandbox.clearRequests();
    const r = await runMain(['--base-url', sandbox.url, 'feed']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^error: no API key for profile 'default'\nhint: store a key with `recall-feed config set api-key`/,
    );
    expect(sandbox.requests()).toEqual([]);
  });

  it('takes format names in any case', async () => {
    const r = await runMainAgainst(sandbox, ['feed', '-f', 'CSV', '--max', '2', '--columns', 'id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\r?\n\d+\r?\n\d+\r?\n$/);
  });

  it('prints help on stdout with exit 0, and usage on stderr with exit 2 when no command is given', async () => {
    const help = await runMain(['feed', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--page-size <1-500>/);
    expect(help.stdout).toMatch(/Examples:/);
    const none = await runMain([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/Usage: recall-feed/);
  });
});

describe('sandbox command', () => {
  // sandbox --port and mcp --http alike: a port taken by another server is a usage error naming the flag to change.
  it.each([
    ['sandbox', (port: number) => ['sandbox', '--port', String(port)], '--port'],
    [
      'mcp',
      (port: number) => ['mcp', '--http', String(port), '--db', path.join(tempDir('rf-mcp-port-'), 'none.db')],
      '--http',
    ],
  ])('%s: a port in use is a usage error naming the port, with a hint', async (_name, args, flag) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const r = await runMain(args(port));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: port ${port} is taken (127.0.0.1:${port} is already in use)\n` +
          `hint: choose another ${flag}, or ${flag} 0 to pick a free one\n`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('an address that is not on this machine is a usage error', async () => {
    // 192.0.2.0/24 is TEST-NET-1: never assigned to a local interface, so binding fails at once.
    const r = await runMain(['sandbox', '--host', '192.0.2.1', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot listen on 192\.0\.2\.1:0: no such address on this machine\nhint: /);
  });
});
