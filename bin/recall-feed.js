#!/usr/bin/env node
// Thin launcher: the only code that touches process. Runs main() and sets the exit code.
import { main } from '../dist/cli.js';
import { processContext } from '../dist/process-context.js';

const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();
