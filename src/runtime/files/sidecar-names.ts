// Names of the files kept beside a target (partial, partial state, lock, temporary files), short enough for the file system.
import { createRequire } from 'node:module';
import path from 'node:path';

// node:crypto is loaded only for a name too long to keep (rare): loading it costs every run that writes
// a file a few milliseconds.
const require = createRequire(import.meta.url);

/** The longest file name (in bytes) most file systems take: ext4, xfs, btrfs, apfs, tmpfs. */
const NAME_MAX = 255;

/**
 * `<file><suffix>`, or, when that name would be longer than a file system takes, the name cut short
 * with a hash of the whole name in place of the cut part: still one fixed name per target (a resume
 * must find it again), and two long names that share their start do not collide.
 */
export function sidecarPath(file: string, suffix: string, prefix = ''): string {
  const base = path.basename(file);
  const name = `${prefix}${base}${suffix}`;
  if (Buffer.byteLength(name) <= NAME_MAX) return path.join(path.dirname(file), name);
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const hash = `~${createHash('sha256').update(base).digest('hex').slice(0, 12)}`;
  const room = NAME_MAX - Buffer.byteLength(`${prefix}${hash}${suffix}`);
  let kept = '';
  for (const ch of base) {
    if (Buffer.byteLength(kept + ch) > room) break;
    kept += ch;
  }
  return path.join(path.dirname(file), `${prefix}${kept}${hash}${suffix}`);
}

/** Where a run writes before the target is complete, and where a failed run keeps its records. */
export const partialPath = (file: string) => sidecarPath(file, '.partial');
/** The cursor and byte count a resume continues from. */
export const partialStatePath = (file: string) => sidecarPath(file, '.partial.json');
