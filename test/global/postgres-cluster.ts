// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (or RECALL_FEED_TEST_PG), its URL provided as `pgUrl`.
import type { TestProject } from 'vitest/node';
import { postgresBinDir, startCluster } from '../helpers/pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An admin URL of the test server (superuser, password included), or '' when there is none. */
    pgUrl: string;
  }
}

/** Each project that lists it (integration, behaviour, e2e) runs this setup in the one main process: they share one cluster, stopped by the last. */
const shared = globalThis as { rfPg?: { started: Promise<{ url: string; stop: () => void }>; users: number } };

async function clusterOrNone(): Promise<{ url: string; stop: () => void }> {
  const bin = postgresBinDir();
  if (bin) return startCluster(bin);
  (globalThis as { rfPgSkipped?: boolean }).rfPgSkipped = true;
  process.stderr.write(
    '\n*** PostgreSQL is not installed: the PostgreSQL half of the archive tests is SKIPPED. ***\n' +
      '*** Install postgresql and postgresql-contrib (or set RECALL_FEED_TEST_PG) to run it.   ***\n\n',
  );
  return { url: '', stop: () => {} };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const given = process.env.RECALL_FEED_TEST_PG;
  if (given) {
    project.provide('pgUrl', given);
    return () => {};
  }
  shared.rfPg ??= { started: clusterOrNone(), users: 0 };
  const cluster = shared.rfPg;
  cluster.users++;
  const { url, stop } = await cluster.started;
  project.provide('pgUrl', url);
  return () => {
    if (--cluster.users === 0) stop();
  };
}
