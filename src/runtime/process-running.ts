// Whether a process of a pid runs on this host: what a run lock's and a digest claim's holder are checked by.

/** Whether a process of this pid runs on this host (as any user). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
