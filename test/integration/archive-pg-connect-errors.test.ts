// Reaching the archive's PostgreSQL server: each failure one line naming host and database, exit 13 (never "cannot
// write"), the password file read without pg's warning, and what --db may not say refused before connecting (exit 2).
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeRun } from '../helpers/archive.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain } from '../helpers/in-process.js';
import { generatedRecalls } from '../helpers/match-generated.js';
import { adminQuery, freshDatabase, pgAdminUrl } from '../helpers/postgres.js';
import { type SourceCli, sourceCli } from '../helpers/source-cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const pg = pgAdminUrl();

describe.skipIf(!pg)('connecting to the archive on PostgreSQL (a real process: its PG* variables and stderr)', () => {
  let cli: SourceCli;
  let admin: URL;
  let db: { url: string; name: string };
  let home: string;
  beforeAll(async () => {
    cli = await sourceCli();
    admin = new URL(pg!);
    db = await freshDatabase('rf_conn');
    await storeRun(db.url, generatedRecalls(30, 3));
    home = tempDir('rf-conn-home-', { scope: 'file' });
  }, 180_000);

  const run = (args: string[], env: Record<string, string> = {}) =>
    cli(args, { cwd: home, env: { HOME: home, RECALL_FEED_CONFIG_DIR: path.join(home, 'cfg'), ...env } });
  const on = () => `database ${db.name} on 127.0.0.1`;

  it('a certificate file that is not there: exit 13, naming the file, host and database, for reading commands too', async () => {
    const url = `${db.url}?sslmode=verify-full&sslrootcert=/nosuch.pem`;
    for (const args of [['stats'], ['query', '--limit', '1'], ['sync', '--sandbox']]) {
      const r = await run([...args, '--db', url]);
      expect(r.exitCode, r.stderr).toBe(13);
      expect(r.stderr).toBe(
        `error: cannot read sslrootcert /nosuch.pem for ${on()}: no such file\n` +
          'hint: check sslmode, and the files sslrootcert, sslcert and sslkey name, in the --db URL (docs/archive.md: TLS)\n',
      );
      expect(r.stdout).toBe('');
    }
  });

  const tlsHint =
    'hint: check sslmode, and the files sslrootcert, sslcert and sslkey name, in the --db URL (docs/archive.md: TLS)\n';

  it('a TLS file that is a folder: exit 13, naming which file, in words (never Node\'s "illegal operation")', async () => {
    const folder = path.join(home, 'certs');
    mkdirSync(folder, { recursive: true });
    const cert = path.join(home, 'client.crt');
    writeFileSync(cert, 'not read further: the key fails first\n');
    const cases: [string, string][] = [
      [`sslrootcert=${folder}`, `sslrootcert ${folder}`],
      // pg reads sslcert, then sslkey, then sslrootcert: the key is the one that fails.
      [`sslcert=${cert}&sslkey=${folder}&sslrootcert=/nosuch.pem`, `sslkey ${folder}`],
    ];
    for (const [params, file] of cases) {
      const r = await run(['stats', '--db', `${db.url}?sslmode=verify-full&${params}`]);
      expect(r.exitCode, r.stderr).toBe(13);
      expect(r.stderr).toBe(`error: cannot read ${file} for ${on()}: it is a folder\n${tlsHint}`);
      expect(r.stdout).toBe('');
    }
  });

  it('a Unix socket folder that is not there (PGHOST or ?host=): exit 13, no server answers there', async () => {
    const noHost = `postgres://${admin.username}:${admin.password}@/${db.name}`;
    const viaEnv = await run(['stats', '--db', noHost], { PGHOST: '/nonexistent', PGPORT: admin.port });
    const viaUrl = await run(['query', '--db', `${noHost}?host=/nonexistent&port=${admin.port}`]);
    for (const r of [viaEnv, viaUrl]) {
      expect(r.exitCode, r.stderr).toBe(13);
      expect(r.stderr).toBe(
        `error: no PostgreSQL server answers at /nonexistent (database ${db.name} on /nonexistent): ` +
          `connect ENOENT /nonexistent/.s.PGSQL.${admin.port}\n` +
          'hint: start the server, or check the host and port in the --db URL\n',
      );
      expect(r.stderr).not.toContain(admin.password);
    }
  });

  it('a setting the server refuses as the session starts (?options=): exit 13, naming host and database', async () => {
    const hint =
      "hint: check the settings the --db URL passes (?options=-c%20name%3Dvalue: a setting this server knows, with a value it takes), and the role's and database's own (ALTER ROLE … SET)\n";
    const unknown = await run(['stats', '--db', `${db.url}?options=-c%20bogus_setting%3D1`]);
    expect(unknown.exitCode, unknown.stderr).toBe(13);
    expect(unknown.stderr).toBe(
      `error: PostgreSQL refused to start a session in ${on()}: unrecognized configuration parameter "bogus_setting"\n${hint}`,
    );
    const invalid = await run(['stats', '--db', `${db.url}?options=-c%20statement_timeout%3Dbanana`]);
    expect(invalid.exitCode, invalid.stderr).toBe(13);
    expect(invalid.stderr).toMatch(
      new RegExp(
        `^error: PostgreSQL refused to start a session in ${on()}: invalid value for parameter "statement_timeout": "banana"\n`,
      ),
    );
  });

  /** A role that may read the archive, with `password`, dropped when the test ends; its name. */
  async function readerRole(password: string): Promise<string> {
    const role = `rf_pgpass_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await adminQuery(`GRANT USAGE ON SCHEMA recall_feed TO ${role}`, [], db.name);
    await adminQuery(`GRANT SELECT ON ALL TABLES IN SCHEMA recall_feed TO ${role}`, [], db.name);
    deferCleanup(async () => {
      await adminQuery(`DROP OWNED BY ${role}`, [], db.name);
      await adminQuery(`DROP ROLE ${role}`);
    });
    return role;
  }

  const noPasswordHint =
    'hint: give it in the --db URL (postgres://user:password@host/db), in PGPASSWORD, or as a line host:port:database:user:password of the password file (chmod 600; docs/archive.md: PostgreSQL)\n';

  it('no password in the URL, PGPASSWORD or the password file: exit 13, saying so (the server refused nothing)', async () => {
    const role = await readerRole('never-given');
    const none = path.join(home, 'no-such.pgpass');
    const r = await run(['stats', '--db', `postgres://${role}@127.0.0.1:${admin.port}/${db.name}`], {
      PGPASSFILE: none,
    });
    expect(r.exitCode, r.stderr).toBe(13);
    expect(r.stderr).toBe(
      `error: no password for ${role}@127.0.0.1:${admin.port}/${db.name} in the --db URL, PGPASSWORD or ${none}\n${noPasswordHint}`,
    );
    expect(r.stdout).toBe('');
  });

  it('a Unix socket folder is looked up in the password file as written, as psql does: not as localhost', async (t) => {
    // A folder of this test's own holding the server's socket (a link to it), reached with ?host=<folder>.
    const [shown] = await adminQuery<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
    const serverFolder = shown!.unix_socket_directories.split(',')[0]!.trim();
    const socket = `.s.PGSQL.${admin.port}`;
    // A server of RECALL_FEED_TEST_PG on another machine has no socket here.
    if (!existsSync(path.join(serverFolder, socket))) t.skip();
    const role = await readerRole('by-socket');
    const folder = tempDir('rf-conn-socket-');
    symlinkSync(path.join(serverFolder, socket), path.join(folder, socket));
    const url = `postgres://${role}@/${db.name}?host=${folder}&port=${admin.port}`;
    const file = path.join(home, 'socket.pgpass');
    writeFileSync(file, `${folder}:${admin.port}:${db.name}:${role}:by-socket\n`, { mode: 0o600 });
    const ok = await run(['stats', '--db', url, '--by', 'source', '-f', 'json'], { PGPASSFILE: file });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toBe('');
    expect((JSON.parse(ok.stdout) as { source: { count: number }[] }).source.reduce((n, s) => n + s.count, 0)).toBe(30);
    // A localhost line is not this folder's (only libpq's own default folder is looked up as localhost).
    writeFileSync(file, `localhost:${admin.port}:${db.name}:${role}:by-socket\n`, { mode: 0o600 });
    const other = await run(['stats', '--db', url], { PGPASSFILE: file });
    expect(other.exitCode, other.stderr).toBe(13);
    expect(other.stderr).toBe(
      `error: no password for ${role}@${folder}:${admin.port}/${db.name} in the --db URL, PGPASSWORD or ${file}\n${noPasswordHint}`,
    );
  });

  it('the password file: libpq rules (first match, *, \\: and \\\\ escapes), and never a warning on stderr', async () => {
    const password = 'pa:ss\\word';
    const role = await readerRole(password);
    const file = path.join(home, '.pgpass');
    writeFileSync(
      file,
      [
        '# the archive',
        `127.0.0.1:${admin.port}:other_db:${role}:wrong`,
        `127.0.0.1:*:${db.name}:${role}:pa\\:ss\\\\word`,
        '*:*:*:*:wrong-too',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const url = `postgres://${role}@127.0.0.1:${admin.port}/${db.name}`;
    const r = await run(['stats', '--db', url, '--by', 'source', '-f', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const bySource = (JSON.parse(r.stdout) as { source: { count: number }[] }).source;
    expect(bySource.reduce((n, s) => n + s.count, 0)).toBe(30);
    // With --log-format json, stderr is JSON lines only: nothing at all here.
    const json = await run(['--log-format', 'json', 'stats', '--db', url]);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(json.stderr).toBe('');

    // PGPASSFILE names another file, read instead of ~/.pgpass.
    const other = path.join(home, 'other.pgpass');
    writeFileSync(other, `*:*:*:${role}:wrong\n`, { mode: 0o600 });
    const elsewhere = await run(['stats', '--db', url], { PGPASSFILE: other });
    expect(elsewhere.exitCode).toBe(13);
    expect(elsewhere.stderr).toMatch(/^error: PostgreSQL refused the login to .*: wrong user name or password\n/);

    // A file its group or others may read is not read, as libpq does; the error says why there is no password.
    chmodSync(file, 0o644);
    const open = await run(['stats', '--db', url]);
    expect(open.exitCode).toBe(13);
    expect(open.stderr).toBe(
      `error: no password for ${role}@127.0.0.1:${admin.port}/${db.name} in the --db URL, PGPASSWORD or ${file} (${file} was not read: its group or others may read it (chmod 600 ${file}))\n${noPasswordHint}`,
    );
  });
});

describe('what --db and --db-schema may not say: refused before connecting, exit 2', () => {
  // Port 9 (discard) on loopback: nothing is asked of it, the refusal comes first.
  const url = 'postgres://ana:pw@127.0.0.1:9/recalls';

  it('a schema name with capitals: SQL written without quotes would name another schema', async () => {
    const r = await runMain(['stats', '--db', url, '--db-schema', 'Team_A']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: schema name 'Team_A' has capitals: PostgreSQL folds names written without quotes to lower case, so SQL naming it (GRANT USAGE ON SCHEMA Team_A) would find team_a\n" +
        'hint: use --db-schema team_a; to keep an archive made in "Team_A" before, rename it first: ALTER SCHEMA "Team_A" RENAME TO team_a\n',
    );
  });

  it('a schema name longer than PostgreSQL keeps says so', async () => {
    const long = 'a'.repeat(64);
    const r = await runMain(['stats', '--db', `${url}?schema=${long}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: schema name '${long}' is 64 characters long: PostgreSQL's names are at most 63\n` +
        'hint: a schema name is lower-case letters, digits and _, up to 63 of them: --db-schema team_a\n',
    );
    expect((await runMain(['stats', '--db', url, '--db-schema', 'a;drop'])).stderr).toMatch(
      /^error: schema name 'a;drop' must be lower-case letters, digits and _, not starting with a digit\nhint: a schema name is/,
    );
  });

  it('an sslmode pg does not know', async () => {
    const r = await runMain(['query', '--db', `${url}?sslmode=bogus`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: postgres://ana:****@127.0.0.1:9/recalls?sslmode=bogus: sslmode 'bogus' is none of disable, allow, prefer, require, verify-ca, verify-full, no-verify\n" +
        'hint: check sslmode in the --db URL (docs/archive.md: TLS)\n',
    );
  });
});
