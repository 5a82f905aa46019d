// Preload (node --import) that logs every module the ESM loader resolves to $BENCH_TRACE_FILE, one URL per line.
import { register } from 'node:module';

if (process.env.BENCH_TRACE_FILE) {
  register('./trace-hooks.mjs', import.meta.url, { data: { file: process.env.BENCH_TRACE_FILE } });
}
