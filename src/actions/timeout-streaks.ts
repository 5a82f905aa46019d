// The rest after timeouts: an action whose receiver gave no answer on two recalls in a row stops for the pass.

/**
 * Per action, the recalls it timed out on since its last success. Two in a row with no success between: its receiver
 * is not answering, and each further attempt would cost another full timeout, so it rests for the rest of the pass.
 * The delivery queue's passes and sync's outbox (src/jobs/archive/outbox-delivery.ts) keep this one rule.
 */
export class TimeoutStreaks {
  private readonly ids = new Map<string, Set<string>>();

  /** Counts a timeout of `action` on recall `id`; true when that makes two recalls in a row. */
  timedOut(action: string, id: string): boolean {
    const ids = this.ids.get(action) ?? new Set<string>();
    ids.add(id);
    this.ids.set(action, ids);
    return ids.size >= 2;
  }

  /** A success ends the action's streak. */
  succeeded(action: string): void {
    this.ids.delete(action);
  }
}
