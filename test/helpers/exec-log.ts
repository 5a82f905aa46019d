// An --exec command for tests, a real node script that logs each call: shared by the in-process and spawned --exec tests.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp-dir.js';

/**
 * A fresh folder with the command: appends {"id", "title", "stdin_id"} to a log. For the title FAIL_ONCE it fails the first
 * time; for the title BLOCK it fails until a release file exists.
 */
const SCRIPT = `
const fs = require('fs');
const [log, id, title] = process.argv.slice(2);
const mark = log + '.failed-' + id;
if (title === process.env.FAIL_ONCE && !fs.existsSync(mark)) { fs.writeFileSync(mark, ''); console.error('failing once for ' + id); process.exit(1); }
if (title === process.env.BLOCK && !fs.existsSync(log + '.release')) { process.exit(3); }
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  fs.appendFileSync(log, JSON.stringify({ id, title, stdin_id: String(JSON.parse(input).id) }) + '\\n');
  console.log('logged ' + id);
});
`;

export function execLogSetup() {
  const dir = tempDir();
  const script = path.join(dir, 'act.cjs');
  writeFileSync(script, SCRIPT);
  const log = path.join(dir, 'log.jsonl');
  const exec = `'${process.execPath}' '${script}' '${log}' {id} {alert_title}`;
  // Only whole lines: the command may be between creating the file and writing its line.
  const logged = () => {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id: string; title: string; stdin_id: string });
  };
  return { dir, log, exec, logged, state: path.join(dir, 'state.json') };
}
