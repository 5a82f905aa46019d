// The chain check on a broken log: no hash is called its head, and only the events before the break are counted.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainedEvent, checkChain, GENESIS, type StoredEvent } from '../../src/archive/cases-chain.js';

/** Six events on two cases, chained as the archive appends them. */
function sixEvents(): StoredEvent[] {
  const out: StoredEvent[] = [];
  for (let i = 0; i < 6; i++)
    out.push(
      chainedEvent(out.at(-1), {
        caseId: 1 + (i % 2),
        at: `2026-06-01T12:00:0${i}.000Z`,
        actor: 'alice',
        action: i < 2 ? 'opened' : 'waiting',
        status: i < 2 ? 'open' : 'waiting',
        outcome: null,
        note: i < 2 ? null : `step ${i}`,
        detail: null,
      }),
    );
  return out;
}

/** sha256 of the documented canonical text, written out here: the JSON array of the fields in order. */
const sha = (e: StoredEvent) =>
  createHash('sha256')
    .update(
      JSON.stringify([e.seq, e.case_id, e.at, e.actor, e.action, e.status, e.outcome, e.note, e.detail, e.prev_hash]),
    )
    .digest('hex');

describe('checkChain', () => {
  it('a sound log: every event counted, the head the hash of the last one', () => {
    const events = sixEvents();
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(checkChain(events)).toEqual({ events: 6, head: sha(events[5]!), broken: undefined });
    expect(checkChain([])).toEqual({ events: 0, head: GENESIS, broken: undefined });
  });

  it('event 3 edited: two events checked out, no head', () => {
    const events = sixEvents();
    events[2] = { ...events[2]!, note: 'x' };
    expect(checkChain(events)).toEqual({
      events: 2,
      head: null,
      broken: { seq: 3, caseId: 1, problem: 'event 3 (case 1) was edited: its hash does not match' },
    });
  });

  it('event 2 removed, or the last event relinked: the events before the break, no head', () => {
    const events = sixEvents();
    expect(checkChain(events.filter((e) => e.seq !== 2))).toMatchObject({
      events: 1,
      head: null,
      broken: { seq: 2, problem: 'event 2 is missing (removed?)' },
    });
    const relinked = [...events.slice(0, 5), { ...events[5]!, prev_hash: 'f'.repeat(64) }];
    expect(checkChain(relinked)).toMatchObject({ events: 5, head: null, broken: { seq: 6 } });
    expect(checkChain([events[1]!, events[0]!])).toMatchObject({ events: 0, head: null });
  });
});
