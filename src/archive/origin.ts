// The rule both engines apply when a sync claims an archive for the API's recalls or the sandbox's.
import { ArchiveOriginError } from './archive-errors.js';
import type { ArchiveOrigin } from './store.js';

/**
 * What the archive holds once `wanted` is claimed: the recorded origin, else (an archive from before origins
 * were recorded) 'api' when it holds recalls, else `wanted`. Throws when that is not `wanted`.
 */
export function settleOrigin(
  name: string,
  recorded: string | undefined,
  hasRecalls: boolean,
  wanted: ArchiveOrigin,
): ArchiveOrigin {
  const holds = (recorded ?? (hasRecalls ? 'api' : wanted)) as ArchiveOrigin;
  if (holds !== wanted) throw new ArchiveOriginError(name, holds);
  return holds;
}
