// Which build of the tool is running, beyond its version number: what a cache of computed answers is keyed by.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The names of the files beside this code and in its `chunks` folder. The CLI's bundle names each chunk by a hash of
 * its content, so any change to the code (a matching rule, say) changes this, though the version in package.json may
 * not; run from the sources (tests) it is the folder's file names, stable from run to run.
 */
export function buildId(): string {
  if (cached !== undefined) return cached;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const names = readdirSync(here);
  const chunks = path.join(here, 'chunks');
  if (existsSync(chunks)) names.push(...readdirSync(chunks).map((n) => `chunks/${n}`));
  cached = names.sort().join('\n');
  return cached;
}
