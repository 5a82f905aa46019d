// The password file's host field for a Unix socket, as the libpq of Debian and Ubuntu reads it (psql here): only its
// compiled-in socket folder, /var/run/postgresql exactly as written, is looked up as `localhost`; every other folder,
// /tmp and /run/postgresql too, as itself. pg's own default host (a URL without one) is `localhost`, over TCP.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgpassPassword } from '../../src/archive/postgres/pgpass.js';

/** One line per host field, each with its own password, so the answer names the line that matched. */
const FILE = [
  'localhost:5432:*:ana:by-localhost',
  '/tmp:5432:*:ana:by-tmp',
  '/run/postgresql:5432:*:ana:by-run',
  '/var/run/postgresql/:5432:*:ana:by-var-run-slash',
  '/srv/pg-socket:5432:*:ana:by-srv',
  '',
].join('\n');

const lookup = (host: string) => pgpassPassword(FILE, { host, port: 5432, database: 'recalls', user: 'ana' });

describe('a Unix socket folder in the password file', () => {
  it.each([
    // psql "host=/var/run/postgresql" reads the localhost line (and not a line naming the folder).
    ['/var/run/postgresql', 'by-localhost'],
    // The same folder written another way is another host to libpq: compared as written.
    ['/var/run/postgresql/', 'by-var-run-slash'],
    ['/run/postgresql', 'by-run'],
    // PostgreSQL's own default folder is not this libpq's: psql "host=/tmp" reads the /tmp line.
    ['/tmp', 'by-tmp'],
    ['/srv/pg-socket', 'by-srv'],
    ['127.0.0.1', undefined],
  ])('host %s reads the line of %s', (host, password) => {
    expect(lookup(host)).toBe(password);
  });

  it("a URL without a host is pg's default host, localhost over TCP, and reads the localhost line", () => {
    const client = new pg.Client({ connectionString: 'postgres://ana@/recalls', port: 5432 });
    const { host } = (client as unknown as { connectionParameters: { host: string } }).connectionParameters;
    expect(host).toBe(pg.defaults.host);
    expect(lookup(host)).toBe('by-localhost');
  });
});
