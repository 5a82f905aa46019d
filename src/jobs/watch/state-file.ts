// What a --state file holds, and the one check of its parsed JSON that feed --state and doctor both make: an entry of
// the wrong type (a time quoted by a script, null, a list of ids) is a damaged file, never an id silently forgotten.
import type { PendingDelivery } from '../../actions/delivery-queue.js';

export interface StateFileV1 {
  version: 1;
  /**
   * id -> epoch seconds of its published_at (or of when it was first seen, for records without one); once that is more
   * than 25 h behind, of the last poll that returned it.
   */
  seen: Record<string, number>;
  /** Recalls written whose actions (--exec, --webhook) have not all succeeded yet, oldest first. */
  pending?: PendingDelivery[];
}

/** The file as this tool wrote it, or not: then `entry` says its first entry of the wrong type, when it has one. */
export type StateFileCheck = { state: StateFileV1; entry?: undefined } | { state?: undefined; entry?: string };

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((a) => typeof a === 'string');

/** Every field a delivery has, of its type: a wrong one (`"gaveUp": 5`) would stop every run at its first pass. */
function isPending(value: unknown): value is PendingDelivery {
  const d = value as PendingDelivery;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.id === 'string' &&
    typeof d.record === 'object' &&
    d.record !== null &&
    !Array.isArray(d.record) &&
    isStrings(d.done) &&
    (d.gaveUp === undefined || isStrings(d.gaveUp)) &&
    typeof d.attempts === 'number' &&
    Number.isFinite(d.attempts) &&
    (d.lastError === undefined || typeof d.lastError === 'string')
  );
}

/** A value as the file has it, cut short: one line whatever it holds (JSON escapes line breaks; 1e999 is Infinity). */
function shown(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function what(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The first entry of `seen` that is not an id with a time in seconds (a finite number). */
function seenProblem(seen: unknown): string | undefined {
  if (typeof seen !== 'object' || seen === null || Array.isArray(seen))
    return `"seen" is ${what(seen)}, not an object of ids and times`;
  for (const [id, at] of Object.entries(seen)) {
    if (typeof at !== 'number' || !Number.isFinite(at))
      return `"seen" has ${shown(id)}: ${shown(at)}, not a time in seconds`;
  }
  return undefined;
}

function pendingProblem(pending: unknown): string | undefined {
  if (pending === undefined) return undefined;
  if (!Array.isArray(pending)) return `"pending" is ${what(pending)}, not a list of deliveries`;
  const bad = pending.findIndex((d) => !isPending(d));
  if (bad >= 0) return `"pending" entry ${bad + 1} is not a delivery: ${shown(pending[bad])}`;
  // One recall owed twice: the queue keeps one entry per id, and the other would stay pending for ever.
  const ids = pending.map((d) => (d as { id: unknown }).id);
  const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  return twice < 0 ? undefined : `"pending" entry ${twice + 1} repeats the id ${shown(ids[twice])}`;
}

/** Checks the parsed text of a state file: one this tool wrote (version 1), every entry of its type. */
export function checkStateFile(parsed: unknown): StateFileCheck {
  const file = parsed as { version?: unknown; seen?: unknown; pending?: unknown } | null;
  if (typeof file !== 'object' || file === null || Array.isArray(file) || file.version !== 1) return {};
  const entry = seenProblem(file.seen) ?? pendingProblem(file.pending);
  return entry === undefined ? { state: file as StateFileV1 } : { entry };
}
