// Preload (node --import) that logs every module the process loads to $BENCH_TRACE_FILE, one `kind url` a line:
// `esm` for what the ES module loader resolves, `read` for a code file read (CommonJS, JSON, a vm-compiled bundle).
import { appendFileSync } from 'node:fs';
import fs from 'node:fs';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.BENCH_TRACE_FILE;
if (file) {
  register('./trace-hooks.mjs', import.meta.url, { data: { file } });
  // Node's CommonJS loader reads code (the launcher's help front too) through fs.readFileSync.
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function tracedReadFileSync(target, ...rest) {
    if (typeof target === 'string' && /\.(c?js|mjs|json)$/.test(target)) {
      appendFileSync(file, `read ${pathToFileURL(target).href}\n`);
    }
    return readFileSync.call(this, target, ...rest);
  };
}
