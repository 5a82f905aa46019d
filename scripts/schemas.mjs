// Writes schemas/<name>.schema.json for every output contract, from the built CLI (`npm run schemas` builds first).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'recall-feed.cjs');
const OUT = path.join(ROOT, 'schemas');

const run = (...args) => execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

const names = run('schema', '--list')
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split('\t')[0]);
mkdirSync(OUT, { recursive: true });
// A contract that was removed leaves no file behind.
for (const file of readdirSync(OUT)) if (file.endsWith('.schema.json')) rmSync(path.join(OUT, file));
for (const name of names) writeFileSync(path.join(OUT, `${name}.schema.json`), run('schema', name));
console.log(`schemas/: ${names.length} contracts written`);
