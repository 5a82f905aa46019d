// The password libpq takes from the password file (PGPASSFILE, else ~/.pgpass), read here by libpq's rules: pg's own
// reading of the file prints a deprecation warning on stderr at every run (pg 8.x), which a cron job mails.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The connection a password is looked up for, as pg resolved it. */
export interface PgpassFor {
  host: string;
  port: number | string;
  database: string;
  user: string;
}

/** The password of the first line that matches; else none, with why the file was not read when that is worth saying. */
export interface PgpassAnswer {
  password: string | undefined;
  /** The file looked in. */
  file: string;
  ignored?: string;
}

/**
 * The one socket folder libpq looks up as `localhost`: its compiled-in default (DEFAULT_PGSOCKET_DIR), compared as
 * written. pg has no default socket folder (no host is `localhost` over TCP), so this is the folder of the libpq
 * Debian and Ubuntu build (`pg_config --configure`: --with-socket-dir), whose psql and recall-feed then read the same
 * line; any other folder, /tmp and /run/postgresql too, is looked up as itself, as that libpq does.
 */
const LIBPQ_SOCKET_DIR = '/var/run/postgresql';

/** PGPASSFILE, else ~/.pgpass (%APPDATA%\postgresql\pgpass.conf on Windows), as libpq names it. */
function pgpassFile(env: Record<string, string | undefined>): string {
  if (env.PGPASSFILE) return env.PGPASSFILE;
  if (process.platform === 'win32') return path.join(env.APPDATA ?? '', 'postgresql', 'pgpass.conf');
  return path.join(env.HOME || os.homedir(), '.pgpass');
}

/** One line's fields, `\` escaping the next character; `star` marks a field written as a bare `*` (any value). */
function fieldsOf(line: string): { text: string; star: boolean }[] {
  const fields: { text: string; star: boolean }[] = [];
  let text = '';
  let raw = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length) {
      text += line[++i];
      raw += `\\${line[i]}`;
    } else if (c === ':') {
      fields.push({ text, star: raw === '*' });
      text = raw = '';
    } else {
      text += c;
      raw += c;
    }
  }
  fields.push({ text, star: raw === '*' });
  return fields;
}

/** The password of the first line of `content` whose host, port, database and user match, as libpq reads the file. */
export function pgpassPassword(content: string, of: PgpassFor): string | undefined {
  const host = of.host === LIBPQ_SOCKET_DIR ? 'localhost' : of.host;
  const wanted = [host, String(of.port), of.database, of.user];
  for (const line of content.split('\n')) {
    const text = line.replace(/\r$/, '');
    if (text === '' || text.startsWith('#')) continue;
    const fields = fieldsOf(text);
    if (fields.length < 5) continue;
    if (wanted.every((value, i) => fields[i]?.star || fields[i]?.text === value)) return fields[4]?.text;
  }
  return undefined;
}

/**
 * The password file's answer for `of`. Like libpq, a file that is missing or unreadable gives none, and so does one
 * that is not a plain file or that its group or others may read (its `ignored` says so, for the login's error).
 */
export async function readPgpass(of: PgpassFor, env: Record<string, string | undefined>): Promise<PgpassAnswer> {
  const file = pgpassFile(env);
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) return { password: undefined, file };
  if (!stat.isFile()) return { password: undefined, file, ignored: `${file} was not read: it is not a plain file` };
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0)
    return {
      password: undefined,
      file,
      ignored: `${file} was not read: its group or others may read it (chmod 600 ${file})`,
    };
  const content = await fs.readFile(file, 'utf8').catch(() => undefined);
  return { password: content === undefined ? undefined : pgpassPassword(content, of), file };
}
