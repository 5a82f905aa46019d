// Loader hooks for trace-imports.mjs: append `esm <url>` for each resolved module to the trace file (they run off the main thread).
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data?.file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `esm ${result.url}\n`);
  return result;
}
