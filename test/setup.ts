// Runs in every test file (vitest setupFiles): disposes each test's temp folders, servers and processes.
import { afterAll, afterEach, beforeEach } from 'vitest';
import { enterTest, leaveFile, leaveTest } from './helpers/cleanup.js';

// Hooks run as a stack: these before-hooks run first, these after-hooks last, after the file's own.
beforeEach(() => enterTest());
afterEach(() => leaveTest());
afterAll(() => leaveFile());
