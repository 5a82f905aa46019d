// Config file and folder modes: warn, as ssh does, when others may read a file holding a secret or write
// the folder; the next write tightens them (conf writes the file 0600, the folder is made 0700).
import fs from 'node:fs';
import path from 'node:path';

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** What is wrong with the modes of an existing config file and its folder, one warning each. */
export function permissionWarnings(file: string, stat: fs.Stats, holdsSecret: boolean): string[] {
  // Windows keeps access in ACLs; its mode bits say nothing about who may read.
  if (process.platform === 'win32') return [];
  const warnings: string[] = [];
  if (holdsSecret && (stat.mode & 0o077) !== 0) {
    warnings.push(
      `the config file ${file} holds a secret and is readable by others (${octal(stat.mode)}); ` +
        `it is made 0600 on the next write, or run: chmod 600 '${file}'`,
    );
  }
  const dir = path.dirname(file);
  let dirMode = 0;
  try {
    dirMode = fs.statSync(dir).mode;
  } catch {
    // The folder went away since the file was read: nothing to warn about.
  }
  if ((dirMode & 0o022) !== 0) {
    warnings.push(
      `the config folder ${dir} is writable by others (${octal(dirMode)}); ` +
        `it is made 0700 on the next write, or run: chmod 700 '${dir}'`,
    );
  }
  return warnings;
}

/**
 * Creates the folder 0700 (whatever the umask), or makes an existing one 0700 when others may write it;
 * an existing private one (0755, 0700) keeps its mode.
 */
export function tightenFolder(dir: string): void {
  if (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) {
    fs.chmodSync(dir, 0o700);
    return;
  }
  if ((fs.statSync(dir).mode & 0o022) !== 0) fs.chmodSync(dir, 0o700);
}
