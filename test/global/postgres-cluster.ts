// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (or RECALL_FEED_TEST_PG), its URL provided as `pgUrl`.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An admin URL of the test server (superuser, password included), or '' when there is none. */
    pgUrl: string;
  }
}

/** The superuser of the throwaway cluster: a password, so the tests can get one wrong. */
const ADMIN = 'rf_admin';
const ADMIN_PASSWORD = 'rf-test-Secret-42';

/** initdb and pg_ctl: from pg_config --bindir, else the newest /usr/lib/postgresql/<n>/bin. */
function binDir(): string | undefined {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the `postgres` system user when we are root (initdb refuses root). */
function asOwner(bin: string, args: string[], owner: string | undefined): void {
  const [cmd, all] = owner ? ['runuser', ['-u', owner, '--', bin, ...args]] : [bin, args];
  execFileSync(cmd as string, all as string[], { stdio: 'pipe' });
}

function postgresUid(): { uid: number; gid: number } | undefined {
  const line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).trim();
  const [, , uid, gid] = line.split(':');
  return uid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

/** Both projects (unit, e2e) run this setup in the one main process: they share one cluster, stopped by the last. */
const shared = globalThis as { rfPg?: { started: Promise<{ url: string; stop: () => void }>; users: number } };

export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.RECALL_FEED_TEST_PG;
  if (given) {
    project.provide('pgUrl', given);
    return () => {};
  }
  shared.rfPg ??= { started: startCluster(), users: 0 };
  const cluster = shared.rfPg;
  cluster.users++;
  const { url, stop } = await cluster.started;
  project.provide('pgUrl', url);
  return () => {
    if (--cluster.users === 0) stop();
  };
}

async function startCluster(): Promise<{ url: string; stop: () => void }> {
  const bin = binDir();
  if (!bin) {
    process.stderr.write(
      '\n*** PostgreSQL is not installed: the PostgreSQL half of the archive tests is SKIPPED. ***\n' +
        '*** Install postgresql and postgresql-contrib (or set RECALL_FEED_TEST_PG) to run it.   ***\n\n',
    );
    return { url: '', stop: () => {} };
  }
  const root = userInfo().uid === 0;
  const owner = root ? 'postgres' : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'rf-pg-'));
  const ids = root ? postgresUid() : undefined;
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${ADMIN_PASSWORD}\n`);
  if (ids) chownSync(pwfile, ids.uid, ids.gid);
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
    throw new Error(`could not start a throwaway PostgreSQL from ${bin}: ${(err as Error).message}`);
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
