// list_cases, "most urgent first": overdue cases first, then by due time (none last), then level and severity.
import { describe, expect, it } from 'vitest';
import type { CaseView } from '../../src/archive/cases-model.js';
import { byUrgency } from '../../src/mcp/tools/cases.js';

const NOW = Date.parse('2026-11-29T16:00:00Z');
const c = (id: number, status: string, due_at: string | null, level = 'match', risk_severity = 'high') =>
  ({ id, status, due_at, level, risk_severity }) as unknown as CaseView;

describe('byUrgency', () => {
  it('puts overdue cases first (the longest overdue first), then the soonest due, then those without a due time', () => {
    const cases = [
      c(1, 'open', null),
      c(2, 'open', '2026-11-29T17:00:00Z'),
      c(3, 'waiting', '2026-11-29T15:00:00Z'),
      c(4, 'open', '2026-11-29T16:50:00Z', 'possible'),
      c(5, 'open', '2026-11-29T14:00:00Z'),
      c(6, 'closed', '2026-11-28T00:00:00Z'),
      c(7, 'open', null, 'possible', 'low'),
      c(8, 'open', '2026-11-29T17:00:00Z', 'match', 'serious'),
    ];
    // Overdue: 5 (14:00), 3 (15:00); then by due time: the closed one (never overdue, due yesterday), 16:50 (4),
    // 17:00 serious (8) before high (2); then none: match before possible.
    expect(cases.sort(byUrgency(NOW)).map((x) => x.id)).toEqual([5, 3, 6, 4, 8, 2, 1, 7]);
  });
});
