// `sources` on a narrow terminal: the long texts go first, so every id (what --sources takes) is shown whole.
import { expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';

it.each([60, 80])('at %i columns every source id is whole and no line is wider than the terminal', async (columns) => {
  const sandbox = await sandboxFor({ recordCount: 3 });
  const r = await runMainAgainst(sandbox, ['sources'], { stdoutIsTTY: true, columns });
  expect(r.code, r.stderr).toBe(0);
  const ids = ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'];
  const lines = r.stdout.split('\n').filter(Boolean);
  for (const id of ids)
    expect(
      lines.some((l) => l.split(/\s+/).includes(id)),
      `${id} in\n${r.stdout}`,
    ).toBe(true);
  expect(r.stdout).not.toMatch(/rappel_conso…/);
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
});
