// Runs in every test file (vitest setupFiles): disposes each test's temp folders, servers and processes.
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { enterTest, leaveFile, leaveTest } from './helpers/cleanup.js';

// Hooks run as a stack: these before-hooks run first, these after-hooks last, after the file's own.
beforeEach(() => enterTest());
afterEach(async () => {
  // Unit files share a worker without isolation: a fake clock must not leak into the next test.
  vi.useRealTimers();
  await leaveTest();
});
afterAll(() => leaveFile());
