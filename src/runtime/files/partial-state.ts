// `<file>.partial.json`: where a failed run stopped, so that `--resume` continues exactly there.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { counted } from '../../output/numbers.js';
import { UsageError } from '../cli-errors.js';
import { type Owner, writeFileAtomic } from './atomic-write.js';
import { writing } from './write-errors.js';

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
  /**
   * The partial holds only records to add to the end of the target (--append). Absent (as in state
   * files of earlier versions): the partial is the whole new file and replaces the target.
   */
  append?: boolean;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** Why there is nothing to resume, naming exactly which of the two files is missing. */
async function whatIsMissing(partial: string, statePath: string): Promise<UsageError> {
  const startOver = `run without --resume to start over (that discards ${partial})`;
  if (!(await exists(partial))) {
    if (await exists(statePath)) {
      return new UsageError(
        `cannot resume: ${statePath} is there, but the records it describes (${partial}) are gone`,
        startOver,
      );
    }
    return new UsageError(`nothing to resume: there is no ${partial} from an earlier run`, 'run without --resume');
  }
  return new UsageError(
    `cannot resume: ${partial} is there, but ${statePath}, which says where to continue, is missing (the run that wrote it was probably killed)`,
    startOver,
  );
}

/** A size or a count: JSON's 1e20 or -1 would have the partial padded with NUL bytes or its records written twice. */
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Every field of the type this tool writes it: anything else is a file of another tool, or damaged. */
function isPartialState(value: unknown): value is PartialState {
  const state = value as Partial<PartialState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    isCount(state.count) &&
    isCount(state.bytes) &&
    typeof state.fingerprint === 'string' &&
    (state.cursor === undefined || typeof state.cursor === 'string') &&
    (state.append === undefined || typeof state.append === 'boolean')
  );
}

/** Reads the state and checks that the partial file it describes is still there. */
export async function readPartialState(partial: string, statePath: string): Promise<PartialState> {
  let raw: string;
  try {
    raw = await fs.readFile(statePath, 'utf8');
  } catch {
    throw await whatIsMissing(partial, statePath);
  }
  if (!(await exists(partial))) throw await whatIsMissing(partial, statePath);
  let state: unknown;
  try {
    state = JSON.parse(raw);
  } catch {
    state = undefined;
  }
  if (!isPartialState(state)) {
    throw new UsageError(
      `cannot resume: ${statePath} is not a state file of this tool`,
      'run without --resume to start over',
    );
  }
  return state;
}

/** Writes the state (0600); `owner` (the target's, as root) is kept, so that the target's owner may --resume. */
export function writePartialState(statePath: string, state: PartialState, owner?: Owner): Promise<void> {
  return writing(statePath, () => writeFileAtomic(statePath, `${JSON.stringify(state)}\n`, undefined, owner));
}

/**
 * Checks, before anything is sent, that the partial holds what its state says: at least `bytes` bytes (a shorter one
 * lost its end, and cutting it "back" would pad it with NUL bytes), and the first `bytes` of them ending at the end of a
 * record as `format` writes them (a size from elsewhere would cut a record in two). What follows `bytes` is a run's
 * torn tail, cut off by the caller. Refused as a usage error (exit 2); neither file is changed.
 */
export async function checkPartialMatches(
  handle: FileHandle,
  where: { partial: string; statePath: string },
  state: PartialState,
  format: string | undefined,
): Promise<void> {
  const why = await partialMismatch(handle, state, format);
  if (why === undefined) return;
  throw new UsageError(
    `cannot resume: ${where.partial} does not match ${where.statePath}: ${why}`,
    `run without --resume to start over (that discards ${where.partial})`,
  );
}

/** Formats whose every byte is a record's: no records, no bytes (csv may hold its header alone). */
const RECORDS_ONLY = new Set(['jsonl', 'json']);

async function partialMismatch(handle: FileHandle, state: PartialState, format: string | undefined) {
  const { count, bytes } = state;
  const { size } = await handle.stat();
  if (size < bytes) return `it has ${size} bytes, fewer than the ${bytes} the state says (its end was lost)`;
  if ((count > 0 && bytes === 0) || (count === 0 && bytes > 0 && RECORDS_ONLY.has(format ?? '')))
    return `the state says ${counted(count, 'record', 'records')} in ${bytes} bytes`;
  if (bytes === 0 || (await endsWithRecord(handle, bytes, format))) return undefined;
  return `its first ${bytes} bytes do not end with a whole record`;
}

/**
 * Whether the first `bytes` of the partial end with a record as `format` writes them. jsonl: a line that is a JSON
 * object, then its newline. json ("[\n", records joined by ",\n"): a line that is a JSON object, with no newline yet.
 * csv: a newline (a row's quoted field may hold more, so the row is not parsed). Other formats are not resumed.
 */
async function endsWithRecord(handle: FileHandle, bytes: number, format: string | undefined): Promise<boolean> {
  if (format === 'csv') return (await readAt(handle, bytes - 1, 1))[0] === NEWLINE;
  if (format === 'jsonl') {
    if ((await readAt(handle, bytes - 1, 1))[0] !== NEWLINE) return false;
    return isJsonObject(await lastLine(handle, bytes - 1));
  }
  if (format === 'json') {
    if ((await readAt(handle, 0, 2)).toString('latin1') !== '[\n') return false;
    return isJsonObject(await lastLine(handle, bytes));
  }
  return true;
}

const NEWLINE = 0x0a;
/** Read backwards this much at a time, looking for the newline before the last record. */
const CHUNK = 1 << 20;
/**
 * Longer than any record this tool writes: each was one JavaScript string (at most 2^29 UTF-16 units, up to 3 bytes
 * each in UTF-8). A longer last line is not a record, and is not read whole into memory.
 */
const MAX_LINE = 3 * 2 ** 29;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The last line of the first `end` bytes: from the newline before it (or the start) up to `end`. */
async function lastLine(handle: FileHandle, end: number): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  for (let start = end; start > 0; ) {
    if (end - start >= MAX_LINE) return undefined;
    const length = Math.min(CHUNK, start);
    start -= length;
    const chunk = await readAt(handle, start, length);
    const newline = chunk.lastIndexOf(NEWLINE);
    parts.unshift(newline < 0 ? chunk : chunk.subarray(newline + 1));
    if (newline >= 0) break;
  }
  return Buffer.concat(parts);
}

function isJsonObject(line: Buffer | undefined): boolean {
  if (line === undefined) return false;
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
