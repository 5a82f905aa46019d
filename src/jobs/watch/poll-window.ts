// The window each poll of a watch asks for (hours_ago): the routine one; the whole window the API allows on the first
// poll and once every sweep period, so that a recall that reaches the API after its routine window has passed is still
// written; and never less than the time since the last successful poll began, so that no stretch between polls is lost.
import { BOUNDS } from '../../api/constants.js';

export const HOUR_MS = 3_600_000;
/** The widest window the API allows. */
const MAX_MS = BOUNDS.hoursMax * HOUR_MS;
/** A widened window reaches this far before the last successful poll: requests take time, and the server's clock starts it. */
const OVERLAP_MS = 60_000;

/** An instant on both of the run's clocks: the wall clock (Context.now) and the monotonic one (monotonicClock). */
export interface Instant {
  wall: number;
  mono: number;
}

/**
 * The time from `from` to `to`: the longer of the two clocks' measures. A wall clock stepped back (NTP, a VM resumed)
 * makes its own measure short, and a machine asleep or suspended stops the monotonic one; neither shortens this.
 */
function since(from: Instant, to: Instant): number {
  return Math.max(to.wall - from.wall, to.mono - from.mono);
}

export class PollWindow {
  /** When the last successful poll, and the last successful one of the whole window, began. */
  private lastPoll: Instant | undefined;
  private lastSweep: Instant | undefined;
  private warned = false;

  /** `sweepMs` undefined: every poll asks for the routine window (the user's --hours), widened only to cover a gap. */
  constructor(
    private readonly routineHours: number,
    private readonly sweepMs: number | undefined,
  ) {}

  /** Before the first poll: a warning when polls `intervalMs` apart leave gaps that no window can cover. */
  checkInterval(intervalMs: number): string | undefined {
    if (intervalMs <= MAX_MS) return undefined;
    return this.once(
      `--interval ${Math.round(intervalMs / 1000)} s is longer than the ${BOUNDS.hoursMax} hours the API can look back: recalls published between two polls will be missed`,
    );
  }

  /** The hours the poll that starts at `now` asks for, and a warning (once) when even those leave a gap. */
  next(now: Instant): { hours: number; warning?: string } {
    const sinceLast = this.lastPoll === undefined ? 0 : since(this.lastPoll, now);
    const sweep =
      this.sweepMs !== undefined && (this.lastSweep === undefined || since(this.lastSweep, now) >= this.sweepMs);
    const gapHours = Math.ceil((sinceLast + OVERLAP_MS) / HOUR_MS);
    const hours = sweep ? BOUNDS.hoursMax : Math.min(BOUNDS.hoursMax, Math.max(this.routineHours, gapHours));
    if (sinceLast <= MAX_MS) return { hours };
    const warning = this.once(
      `more than ${BOUNDS.hoursMax} hours since the last successful poll, the most the API can look back: recalls published in between may be missed`,
    );
    return warning === undefined ? { hours } : { hours, warning };
  }

  /** After the poll that began at `started` and asked for `hours` succeeded. */
  succeeded(started: Instant, hours: number): void {
    this.lastPoll = started;
    if (hours >= BOUNDS.hoursMax) this.lastSweep = started;
  }

  private once(text: string): string | undefined {
    if (this.warned) return undefined;
    this.warned = true;
    return text;
  }
}
