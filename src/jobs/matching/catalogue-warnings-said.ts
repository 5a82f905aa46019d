// Which catalogue warnings digest and report have said already, so that an unattended run repeats none until the catalogue changes.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { configPath } from '../../runtime/config/open-store.js';
import { writeFileAtomic } from '../../runtime/files/atomic-write.js';

type Env = Record<string, string | undefined>;

/** Catalogues remembered; the oldest go first (a name that is gone stays harmless until then). */
const MAX_CATALOGUES = 100;

/**
 * Kept beside the config file, not beside the archive: a PostgreSQL archive has no folder, and the
 * warnings are about the catalogue, whichever archive a run reads.
 */
const memoryFile = (env: Env) => path.join(path.dirname(configPath(env)), 'catalogue-warnings.json');

interface Memory {
  version: 1;
  /** Absolute catalogue path to the checksum of the warnings last said for it. */
  said: Record<string, string>;
}

async function readMemory(file: string): Promise<Memory> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Memory>;
    if (parsed.version === 1 && parsed.said && typeof parsed.said === 'object') {
      return { version: 1, said: Object.assign(Object.create(null), parsed.said) };
    }
  } catch {
    // Not written yet, or unreadable: every warning is new.
  }
  return { version: 1, said: Object.create(null) };
}

/**
 * Says `warnings` (of the catalogue at `catalogue`) unless the last digest or report said exactly these:
 * an unchanged catalogue has nothing new to say, and cron mails whatever reaches stderr. `match --catalog`
 * lists them on every run, for whoever is fixing the file. Remembering is best effort: a config folder
 * that cannot be written means the warnings come every time, as before.
 */
export async function sayCatalogueWarningsOnce(
  catalogue: string,
  warnings: readonly string[],
  say: (text: string) => void,
  env: Env,
): Promise<void> {
  if (warnings.length === 0) return;
  const key = path.resolve(catalogue);
  const sum = createHash('sha256').update(warnings.join('\n')).digest('hex');
  const file = memoryFile(env);
  const memory = await readMemory(file);
  if (memory.said[key] === sum) return;
  for (const text of warnings) say(text);
  delete memory.said[key];
  memory.said[key] = sum;
  const keys = Object.keys(memory.said);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_CATALOGUES))) delete memory.said[old];
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${JSON.stringify(memory, null, 2)}\n`);
  } catch {
    // Best effort (see above).
  }
}
