// `<file>.partial.json`: where a failed run stopped, so that `--resume` continues exactly there.
import { promises as fs } from 'node:fs';
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

/** Reads the state and checks that the partial file it describes is still there. */
export async function readPartialState(partial: string, statePath: string): Promise<PartialState> {
  let raw: string;
  try {
    raw = await fs.readFile(statePath, 'utf8');
  } catch {
    throw await whatIsMissing(partial, statePath);
  }
  if (!(await exists(partial))) throw await whatIsMissing(partial, statePath);
  let state: PartialState | undefined;
  try {
    state = JSON.parse(raw) as PartialState;
  } catch {
    state = undefined;
  }
  if (state?.version !== 1 || typeof state.count !== 'number' || typeof state.bytes !== 'number') {
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
