// The build id that keys match --archive's state: the names of the running code's files, so a rebuilt bundle differs.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { buildId } from '../../src/runtime/build-id.js';

it('is the sorted names of the files beside the running code (here, the sources of src/runtime)', () => {
  const folder = path.resolve(import.meta.dirname, '../../src/runtime');
  const names = readdirSync(folder).sort();
  expect(names).toContain('build-id.ts');
  expect(buildId().split('\n')).toEqual(names);
  expect(buildId()).toBe(buildId());
});
