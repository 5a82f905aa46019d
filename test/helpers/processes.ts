// Processes a test's commands started: whether one still runs, and the PIDs a command wrote down.
import { existsSync, readFileSync } from 'node:fs';

/** Alive as a process, not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The PIDs a command wrote, one a line (none while the file does not exist). */
export function pids(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : [];
}
