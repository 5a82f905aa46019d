// The container runs recall-feed under an init as PID 1 (node reaps no orphan: each child an --exec command leaves
// behind would stay a zombie for the container's life): the image's entrypoint, and docs/deploy.md's long-running
// `docker run`. Docker cannot run here; the reaping itself was checked with Debian's tini under `unshare --pid`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(finalStage)?.[1] ?? '[]') as string[];

  it('starts node under tini, which reaps as a subreaper too (under docker run --init) and so says nothing', () => {
    expect(entrypoint.slice(0, 3)).toEqual(['/usr/bin/tini', '-s', '--']);
    expect(entrypoint.slice(3)).toEqual(['node', '/app/bin/recall-feed.cjs']);
  });

  it('installs tini in the stage that runs, before it drops root', () => {
    const install = finalStage.search(/^RUN apt-get update && apt-get install -y --no-install-recommends tini\b/m);
    expect(install).toBeGreaterThan(0);
    expect(install).toBeLessThan(finalStage.search(/^USER /m));
  });
});

describe('docs/deploy.md', () => {
  const doc = read('docs/deploy.md');
  const commands = doc.replace(/\s*\\\n\s*/g, ' ').split('\n');

  it('the long-running container is started with --init, and Compose is told init: true', () => {
    const detached = commands.filter((l) => /^docker run -d\b/.test(l));
    expect(detached.length).toBeGreaterThan(0);
    for (const line of detached) expect(line).toMatch(/ --init /);
    expect(doc).toContain('`init: true`');
  });
});
