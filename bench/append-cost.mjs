// What `--append` costs as the file grows: one new record added to a 100 MB file against a 1 MB file, as a ratio.
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, Claims, cleanEnv, median, ratio, requireBuild, run, table, tempDir } from './lib/common.mjs';

const ROUNDS = 7;
const WARMUP = 2;
/** An append costs what the new records cost: the file's size must not show (the old code copied it: ~1.7×). */
const RATIO_LIMIT = 1.3;
const SIZES = [
  { name: '1 MB', bytes: 1024 * 1024 },
  { name: '100 MB', bytes: 100 * 1024 * 1024 },
];

function fill(file, bytes) {
  const line = `{"id":"old","pad":"${'x'.repeat(100)}"}\n`;
  const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length));
  const parts = [];
  for (let size = 0; size < bytes; size += chunk.length) parts.push(chunk);
  writeFileSync(file, parts.join(''));
}

const claims = new Claims('append-cost');
try {
  requireBuild();
  const dir = tempDir('append');
  const env = cleanEnv({ HOME: dir, RECALL_FEED_CONFIG_DIR: path.join(dir, 'config') });
  const files = SIZES.map((s) => ({ ...s, file: path.join(dir, `${s.bytes}.jsonl`) }));
  for (const f of files) fill(f.file, f.bytes);
  const times = Object.fromEntries(files.map((f) => [f.name, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternating order, so neither size always runs on a warmer cache.
    const order = round % 2 ? [...files].reverse() : files;
    for (const f of order) {
      const before = statSync(f.file).size;
      const res = await run(
        process.execPath,
        [BIN, 'feed', '--sandbox', '--max', '1', '-f', 'jsonl', '-o', f.file, '--append'],
        {
          env,
          timeoutMs: 60_000,
        },
      );
      if (res.code !== 0) throw new Error(`append to the ${f.name} file exited ${res.code}: ${res.stderr}`);
      const grew = statSync(f.file).size - before;
      if (grew <= 0 || grew > 10_000) throw new Error(`the ${f.name} file grew by ${grew} bytes for one record`);
      if (round >= WARMUP) times[f.name].push(res.ms);
    }
  }
  const [small, big] = files.map((f) => median(times[f.name]));
  console.log(
    table(
      ['existing file', 'median ms', 'ratio'],
      files.map((f) => [f.name, median(times[f.name]).toFixed(0), ratio(median(times[f.name]), small)]),
    ),
  );
  claims.check(
    `appending one record to a 100 MB file costs at most ${RATIO_LIMIT}× what it costs on a 1 MB file`,
    big / small <= RATIO_LIMIT,
    ratio(big, small),
  );
  claims.finish(`100 MB vs 1 MB: ${ratio(big, small)}`);
} catch (err) {
  claims.crash(err);
}
