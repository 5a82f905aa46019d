// A file's sha256, read as a stream (a catalogue may be gigabytes): for the match state's keys and the append journal.
import { createReadStream } from 'node:fs';

/** sha256 of a file's bytes in hex; null when it does not exist. */
export async function fileSha256(file: string): Promise<string | null> {
  // Loaded when first asked for: the run lock imports this, and a plain run need not pay for node:crypto.
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return hash.digest('hex');
}
