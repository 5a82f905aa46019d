// A PostgreSQL URL to another machine that chooses no TLS is refused before any lookup or connection (exit 2, the host
// named, never the password); loopback and Unix sockets are this machine, and sslmode (or PGSSLMODE, as pg reads it)
// chooses. Nothing here reaches a network: every host is under .invalid, and no socket is ever opened to one.
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dbTarget } from '../../src/archive/db-target.js';
import { refusePlainText } from '../../src/archive/postgres/plain-text.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const HINT =
  'hint: add ?sslmode=require (TLS, certificate checked) or ?sslmode=disable to accept an unencrypted connection\n';
const SECRET = 'pl41n-s3cret';

/** refusePlainText of `url` as dbTarget reads it: the error's message, or undefined when it may connect. */
function refusal(url: string, env: Record<string, string | undefined> = {}): string | undefined {
  const target = dbTarget(url);
  if (target.kind !== 'postgres') throw new Error('not a URL');
  try {
    refusePlainText(target, env);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('which URLs may connect without TLS', () => {
  beforeEach(() => {
    // dbTarget works the host out as pg does, PGHOST included.
    for (const name of ['PGHOST', 'PGSSLMODE']) vi.stubEnv(name, undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('refuses a TCP host of another machine with no sslmode, naming host and database, never the password', () => {
    for (const [url, host] of [
      [`postgres://ana:${SECRET}@db.invalid/recalls`, 'db.invalid'],
      [`postgres://ana:${SECRET}@DB.invalid:6543/recalls`, 'DB.invalid'],
      [`postgres://ana:${SECRET}@192.0.2.7/recalls`, '192.0.2.7'],
      [`postgres://ana:${SECRET}@[2001:db8::1]/recalls`, '2001:db8::1'],
      // ?host= wins over the URL's host, as pg takes it.
      [`postgres://ana:${SECRET}@localhost/recalls?host=db.invalid`, 'db.invalid'],
      [`postgres://ana@db.invalid/recalls?password=${SECRET}&uselibpqcompat=true`, 'db.invalid'],
    ]) {
      const said = refusal(url as string);
      expect(said, url).toBe(
        `the connection to database recalls on ${host} would not be encrypted: the --db URL sets no sslmode (nor does PGSSLMODE)`,
      );
    }
    // An empty host is PGHOST's, which pg reads from the process's environment.
    vi.stubEnv('PGHOST', 'db.invalid');
    expect(refusal('postgres://ana@/recalls')).toMatch(/on db\.invalid would not be encrypted/);
  });

  it('lets loopback and Unix sockets through, and a URL or PGSSLMODE that chooses', () => {
    for (const url of [
      'postgres://ana:pw@localhost/recalls',
      'postgres://ana:pw@LOCALHOST/recalls',
      'postgres://ana:pw@127.0.0.1:5432/recalls',
      'postgres://ana:pw@127.8.9.10/recalls',
      'postgres://ana:pw@[::1]/recalls',
      'postgres://ana:pw@/recalls',
      'postgres://ana:pw@db.invalid/recalls?host=/var/run/postgresql',
      'postgres://ana:pw@%2Fvar%2Frun%2Fpostgresql/recalls',
      'postgres://ana:pw@db.invalid/recalls?sslmode=require',
      'postgres://ana:pw@db.invalid/recalls?sslmode=disable',
      'postgres://ana:pw@db.invalid/recalls?sslmode=no-verify',
      'postgres://ana:pw@db.invalid/recalls?ssl=true',
      'postgres://ana:pw@db.invalid/recalls?sslrootcert=/etc/ca.pem',
      'postgres://ana:pw@db.invalid/recalls?sslnegotiation=direct',
    ])
      expect(refusal(url), url).toBeUndefined();
    // PGSSLMODE as pg honours it: only when the URL says nothing, and only the values pg knows (allow is not one).
    for (const mode of ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'])
      expect(refusal('postgres://ana:pw@db.invalid/recalls', { PGSSLMODE: mode }), mode).toBeUndefined();
    for (const mode of ['allow', '', 'on'])
      expect(refusal('postgres://ana:pw@db.invalid/recalls', { PGSSLMODE: mode }), mode).toMatch(/not be encrypted/);
  });

  it('a TLS parameter with no value chooses nothing (pg reads it as absent), and ?ssl= even hides PGSSLMODE', () => {
    // pg-connection-string: an empty sslcert, sslkey, sslrootcert or sslmode is no TLS; ssl= is '' (no TLS), and
    // ConnectionParameters then never reads PGSSLMODE. The last of a repeated parameter is the one pg keeps.
    const refused = 'the connection to database recalls on 192.0.2.2 would not be encrypted: ';
    for (const query of [
      'sslcert=',
      'sslkey=',
      'sslrootcert=',
      'sslnegotiation=',
      'sslnegotiation=postgres',
      'sslrootcert=/etc/ca.pem&sslrootcert=',
    ])
      expect(refusal(`postgres://ana:${SECRET}@192.0.2.2:5433/recalls?${query}`), query).toBe(
        `${refused}the --db URL sets no sslmode (nor does PGSSLMODE)`,
      );
    // An empty ssl= is said as it is: it also keeps PGSSLMODE from being read, set or not.
    for (const query of ['ssl=', 'ssl=&sslnegotiation=direct', 'ssl=1&ssl='])
      for (const env of [{}, { PGSSLMODE: 'require' }])
        expect(refusal(`postgres://ana:${SECRET}@192.0.2.2:5433/recalls?${query}`, env), query).toBe(
          `${refused}the --db URL has an empty ssl=, which chooses no TLS and keeps PGSSLMODE from being read`,
        );
    expect(refusal('postgres://ana:pw@db.invalid/recalls?sslcert=', { PGSSLMODE: 'require' })).toBeUndefined();
    // Values pg reads as on (1, true, and any other non-empty text, false included: a truthy string) or as off (0).
    for (const query of ['ssl=1', 'ssl=0', 'ssl=false', 'ssl=no-verify', 'ssl=&sslcert=/etc/c.pem', 'sslkey=/k.pem'])
      expect(refusal(`postgres://ana:pw@db.invalid/recalls?${query}`), query).toBeUndefined();
  });

  it('this machine however its address is written: IPv4-mapped, any spelling of ::1', () => {
    for (const url of [
      'postgres://u:pw@[::ffff:127.0.0.1]/recalls',
      'postgres://u:pw@[::ffff:7f00:1]/recalls',
      'postgres://u:pw@[0:0:0:0:0:0:0:1]/recalls',
      'postgres://u:pw@[0::1]:5433/recalls',
      'postgres://u:pw@db.invalid/recalls?host=0:0:0:0:0:0:0:1',
      'postgres://u:pw@db.invalid/recalls?host=::ffff:127.1.2.3',
      'postgres://u:pw@db.invalid/recalls?host=0000:0000:0000:0000:0000:FFFF:7F00:0001',
    ])
      expect(refusal(url), url).toBeUndefined();
    for (const [url, host] of [
      ['postgres://u:pw@[::ffff:128.0.0.1]/recalls', '::ffff:8000:1'],
      ['postgres://u:pw@[::ffff:7f00:1:0]/recalls', '::ffff:7f00:1:0'],
      ['postgres://u:pw@[::2]/recalls', '::2'],
      ['postgres://u:pw@[1::1]/recalls', '1::1'],
      ['postgres://u:pw@db.invalid/recalls?host=localhost..', 'localhost..'],
      ['postgres://u:pw@db.invalid/recalls?host=localhost.invalid', 'localhost.invalid'],
      ['postgres://u:pw@db.invalid/recalls?host=127.0.0.256', '127.0.0.256'],
      ['postgres://u:pw@db.invalid/recalls?host=::1::1', '::1::1'],
    ])
      expect(refusal(url as string), url).toMatch(
        new RegExp(` on ${host!.replace(/\./g, '\\.')} would not be encrypted`),
      );
  });
});

describe('the CLI refuses before any lookup or connection', () => {
  let connects: unknown[][];
  beforeEach(() => {
    for (const name of ['PGHOST', 'PGSSLMODE', 'PGPASSWORD']) vi.stubEnv(name, undefined);
    connects = [];
    const connect = net.Socket.prototype.connect;
    // Every socket pg opens (TCP or Unix) goes through here, and a host name is looked up inside it.
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      connects.push(args);
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  const url = `postgres://ana:${SECRET}@db.invalid:5432/recalls`;
  const said = `error: the connection to database recalls on db.invalid would not be encrypted: the --db URL sets no sslmode (nor does PGSSLMODE)\n${HINT}`;

  it('--db, RECALL_FEED_DB and the profile: exit 2, one line and the hint, no socket, no password', async () => {
    const config = tempDir('rf-plain-config-');
    const set = await runMain(['config', 'set', 'db'], { env: { RECALL_FEED_CONFIG_DIR: config }, stdin: `${url}\n` });
    expect(set.code, set.stderr).toBe(0);
    const runs = [
      await runMain(['query', '--db', url, '--limit', '1']),
      await runMain(['stats'], { env: { RECALL_FEED_DB: url } }),
      await runMain(['cases'], { env: { RECALL_FEED_CONFIG_DIR: config } }),
      await runMain(['sync', '--sandbox', '--db', url]),
    ];
    for (const r of runs) {
      expect(r.stderr).toBe(said);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    // Not a socket opened: no lookup of db.invalid was even tried (it would have failed as an unknown host, exit 13).
    expect(connects.filter((args) => JSON.stringify(args).includes('db.invalid'))).toEqual([]);
  });

  it('an empty TLS parameter (?sslcert=) is refused as none: no socket, never a plain StartupMessage', async () => {
    // Blocked rather than passed on: without the refusal pg would connect to 192.0.2.2 in clear text.
    vi.mocked(net.Socket.prototype.connect).mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      connects.push(args);
      this.destroy(new Error('blocked by the test'));
      return this;
    });
    for (const query of ['sslcert=', 'ssl=', 'sslrootcert=']) {
      const r = await runMain(['query', '--db', `postgres://u:${SECRET}@192.0.2.2:5433/recalls?${query}`]);
      const why =
        query === 'ssl='
          ? 'the --db URL has an empty ssl=, which chooses no TLS and keeps PGSSLMODE from being read'
          : 'the --db URL sets no sslmode (nor does PGSSLMODE)';
      expect(r.stderr, query).toBe(
        said.replace('db.invalid', '192.0.2.2').replace('the --db URL sets no sslmode (nor does PGSSLMODE)', why),
      );
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(connects).toEqual([]);
  });

  it('an empty host (PGHOST, else localhost) whose TLS file is missing: that file named (exit 13), never "Invalid URL"', async () => {
    const r = await runMain([
      'query',
      '--db',
      'postgres://ana:pw@/recalls?sslmode=verify-full&sslrootcert=/nosuch.pem',
    ]);
    expect(r.stderr).toMatch(
      /^error: cannot read sslrootcert \/nosuch\.pem for database recalls on localhost: no such file\n/,
    );
    expect(r.code).toBe(13);
    expect(connects).toEqual([]);
  });

  it('a Unix socket is this machine: tried, and fails as a missing socket (exit 13), never refused', async () => {
    const r = await runMain(['query', '--db', `${url}?host=/nonexistent`]);
    expect(r.code).toBe(13);
    expect(r.stderr).toMatch(
      /^error: no PostgreSQL server answers at \/nonexistent \(database recalls on \/nonexistent\)/,
    );
    expect(r.stderr).not.toContain(SECRET);
  });
});
