// Where output goes: stdout, or a file written atomically through `<file>.partial`, resumable after a failure.
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { UsageError } from '../errors.js';
import type { OutStream } from '../context.js';
import { writeFileAtomic } from './atomic-write.js';

/** What `<file>.partial.json` remembers so that `--resume` continues exactly where the run stopped. */
export interface PartialState {
  version: 1;
  /** The cursor that continues right after the last record in the partial file; absent: from the start. */
  cursor?: string;
  /** Records of this run already in the partial file. */
  count: number;
  /** Size of the partial file when the state was saved: anything after it is cut on resume. */
  bytes: number;
  /** The options that shape the output; a resume with other options is refused. */
  fingerprint: string;
}

export interface OutputTarget {
  stream: Writable;
  /** Whether the output starts empty (a new file, stdout, or appending to an empty file): write headers then. */
  startsEmpty: boolean;
  /** Present when continuing a partial file. */
  resumed: PartialState | undefined;
  /** The run succeeded: put the result in place. */
  commit(): Promise<void>;
  /** The run failed in a way worth resuming: keep what was written, with the state. */
  keep(state: { cursor: string | undefined; count: number }): Promise<string | undefined>;
  /** The run failed in a way not worth resuming: leave nothing behind. */
  discard(): Promise<void>;
}

export function stdoutTarget(stdout: OutStream): OutputTarget {
  return {
    stream: stdout,
    startsEmpty: true,
    resumed: undefined,
    commit: async () => {},
    keep: async () => undefined,
    discard: async () => {},
  };
}

export interface FileTargetOptions {
  append: boolean;
  resume: boolean;
  fingerprint: string;
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function readState(statePath: string, file: string): Promise<PartialState> {
  let raw: string;
  try {
    raw = await fs.readFile(statePath, 'utf8');
  } catch {
    throw new UsageError(`nothing to resume: there is no ${file}.partial from an earlier run`, 'run without --resume');
  }
  let state: PartialState | undefined;
  try {
    state = JSON.parse(raw) as PartialState;
  } catch {
    state = undefined;
  }
  if (state?.version !== 1 || typeof state.count !== 'number' || typeof state.bytes !== 'number') {
    throw new UsageError(`cannot resume: ${statePath} is not a state file of this tool`);
  }
  return state;
}

/** Opens `<file>.partial` for writing; the target itself is only touched by commit(). */
export async function fileTarget(file: string, opts: FileTargetOptions): Promise<OutputTarget> {
  const partial = `${file}.partial`;
  const statePath = `${file}.partial.json`;
  const dir = path.dirname(path.resolve(file));
  if ((await sizeOf(dir)) === undefined) throw new UsageError(`cannot write ${file}: the folder ${dir} does not exist`);
  let resumed: PartialState | undefined;
  let startsEmpty: boolean;
  if (opts.resume) {
    resumed = await readState(statePath, file);
    if (resumed.fingerprint !== opts.fingerprint) {
      throw new UsageError(
        `cannot resume ${file}.partial: it was written with other options`,
        'resume with the exact command printed when it stopped, or run without --resume to start over',
      );
    }
    try {
      await fs.truncate(partial, resumed.bytes);
    } catch {
      throw new UsageError(`nothing to resume: ${partial} is gone`, 'run without --resume to start over');
    }
    // Nothing was written yet (not even a copied --append target): headers still go first.
    startsEmpty = resumed.bytes === 0;
  } else {
    // A run without --resume starts over: a stale partial from an earlier run goes.
    await fs.rm(statePath, { force: true });
    await fs.rm(partial, { force: true });
    const existing = opts.append ? await sizeOf(file) : undefined;
    if (existing !== undefined) await fs.copyFile(file, partial);
    startsEmpty = !existing;
  }
  const stream = createWriteStream(partial, { flags: 'a' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (err) =>
      reject(new UsageError(`cannot write ${partial}: ${(err as NodeJS.ErrnoException).code ?? err.message}`)),
    );
  });
  const close = async () => {
    if (!stream.writableEnded) stream.end();
    await finished(stream);
  };
  return {
    stream,
    startsEmpty,
    resumed,
    commit: async () => {
      await close();
      await fs.rename(partial, file);
      await fs.rm(statePath, { force: true });
    },
    keep: async (state) => {
      await close();
      const bytes = (await sizeOf(partial)) ?? 0;
      const full: PartialState = { version: 1, count: state.count, bytes, fingerprint: opts.fingerprint };
      if (state.cursor !== undefined) full.cursor = state.cursor;
      await writeFileAtomic(statePath, `${JSON.stringify(full)}\n`);
      return partial;
    },
    discard: async () => {
      await close().catch(() => {});
      await fs.rm(partial, { force: true });
      await fs.rm(statePath, { force: true });
    },
  };
}
