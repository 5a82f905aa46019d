#!/usr/bin/env node
// Thin launcher: the only code that touches process. Runs main() and sets the exit code.
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with a WebAssembly module; optimising it (TurboFan) costs a short run about 35 MiB
// and 80 ms of CPU, more than it ever saves: the baseline compiler (Liftoff) alone parses fast enough.
setFlagsFromString('--liftoff-only');

const { main } = await import('../dist/cli/main.js');
const { processContext } = await import('../dist/cli/process-context.js');

const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();
