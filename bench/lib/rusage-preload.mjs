// Preload (node --import) that writes the process's own getrusage at exit to $BENCH_RUSAGE_FILE: peak RSS and CPU time.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  process.on('exit', (code) => {
    const u = process.resourceUsage();
    // maxRSS is in kilobytes (getrusage ru_maxrss); CPU times in microseconds.
    writeFileSync(file, JSON.stringify({ code, maxRssKB: u.maxRSS, userUs: u.userCPUTime, systemUs: u.systemCPUTime }));
  });
}
