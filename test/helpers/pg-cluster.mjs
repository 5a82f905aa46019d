// Starts a throwaway PostgreSQL cluster from the machine's own binaries (tests and bench): a temp folder, a free loopback port.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/** The superuser of the throwaway cluster: a password, so the tests can get one wrong. */
const ADMIN = 'rf_admin';
const ADMIN_PASSWORD = 'rf-test-Secret-42';

/** initdb and pg_ctl: from pg_config --bindir, else the newest /usr/lib/postgresql/<n>/bin; undefined when neither. */
export function postgresBinDir() {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // No pg_config (only the server package, or nothing at all).
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the `postgres` system user when we are root (initdb refuses root). */
function asOwner(bin, args, owner) {
  if (owner) execFileSync('runuser', ['-u', owner, '--', bin, ...args], { stdio: 'pipe' });
  else execFileSync(bin, args, { stdio: 'pipe' });
}

function postgresIds() {
  const [, , uid, gid] = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).trim().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a cluster in a new temp folder (owned by `postgres` when we are root) with fsync off; resolves to
 * its admin URL (password included) and a stop() that stops it and removes the folder.
 */
export async function startCluster(bin) {
  const owner = userInfo().uid === 0 ? 'postgres' : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'rf-pg-'));
  const ids = owner ? postgresIds() : undefined;
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${ADMIN_PASSWORD}\n`);
  if (ids) {
    chownSync(dir, ids.uid, ids.gid);
    chownSync(pwfile, ids.uid, ids.gid);
  }
  const data = path.join(dir, 'data');
  const port = await freePort();
  const ctl = path.join(bin, 'pg_ctl');
  try {
    asOwner(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', ADMIN, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8'],
      owner,
    );
    const opts = `-c fsync=off -c full_page_writes=off -c synchronous_commit=off -p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`;
    asOwner(ctl, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'], owner);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL from ${bin}: ${err.message}`);
  }
  const stop = () => {
    try {
      asOwner(ctl, ['-D', data, '-m', 'immediate', '-w', 'stop'], owner);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url: `postgres://${ADMIN}:${ADMIN_PASSWORD}@127.0.0.1:${port}/postgres`, stop };
}
