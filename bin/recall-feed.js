#!/usr/bin/env node
// Thin launcher: the only code that touches process. Runs main() and sets the exit code.
import { main } from '../dist/cli/main.js';
import { processContext } from '../dist/cli/process-context.js';

const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();
