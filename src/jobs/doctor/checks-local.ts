// Doctor's checks on this machine: the config file and profile, and the state and lock files named by flags.
import { specialKind } from '../../runtime/files/kept-files.js';
import { promises as fs } from 'node:fs';
import type { Context } from '../../runtime/context.js';
import { unknownProfileKeys } from '../../runtime/config/config-keys.js';
import { configPath, openConfigStore } from '../../runtime/config/open-store.js';
import { DEFAULT_STALE_MS } from '../../runtime/files/run-lock.js';
import { describeHolder, holderEnded, lockDir, readHolder } from '../../runtime/files/run-lock-holder.js';
import { resolveTargetPath } from '../../runtime/files/target-path.js';
import { checkStateFile } from '../watch/state-file.js';
import { checkStateWritable } from '../watch/seen-state.js';
import { type CheckResult, fail, messageOf, ok, warn } from './check.js';

const mode = (m: number) => `0${(m & 0o777).toString(8)}`;

/**
 * The config file and the run's profile (--profile, else RECALL_FEED_PROFILE, else default) in it; `profileProblem`
 * is why the run's settings had to leave the profile out (a value in it refused).
 */
export async function checkConfig(profile: string, ctx: Context, profileProblem?: Error): Promise<CheckResult> {
  const file = configPath(ctx.env);
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(file);
  } catch {
    return ok('config', `no config file (${file}); profile '${profile}' from flags and environment only`);
  }
  const warnings: string[] = [];
  try {
    const store = await openConfigStore(ctx.env, {
      write: (m: string) => warnings.push(m.replace(/^warning: /, '').trim()),
    });
    const known = Object.keys(store.list(profile)).length > 0 || profile === 'default';
    const detail = `${file} (mode ${mode(stat.mode)}), profile '${profile}'`;
    if (profileProblem)
      return fail(
        'config',
        `${detail}: ${messageOf(profileProblem)}; the other checks ran without the profile`,
        hintOf(profileProblem) ?? 'recall-feed config set <key> <value>',
      );
    if (warnings.length) return warn('config', `${detail}: ${warnings[0]}`, `chmod 600 ${file}`);
    // A key no setting reads (a typo in a hand edit): every run ignores it, with a warning.
    const unknown = unknownProfileKeys(store.list(profile), profile, file);
    if (unknown.length > 0)
      return warn('config', unknown.map((u) => u.message).join('; '), unknown.map((u) => u.remedy).join('; '));
    if (!known) return warn('config', `${detail} holds no settings`, 'check --profile or RECALL_FEED_PROFILE');
    return ok('config', detail);
  } catch (err) {
    return fail(
      'config',
      `${messageOf(err)}; the other checks ran without the profile`,
      'fix or move the file aside; `recall-feed config set` writes a new one',
    );
  }
}

function hintOf(err: unknown): string | undefined {
  const hint = (err as { hint?: unknown } | null)?.hint;
  return typeof hint === 'string' ? hint : undefined;
}

/**
 * A state file: absent (a first run creates it), or JSON we can read, in a folder we can write, found as a run finds it
 * (through its links: one into a folder that is gone fails, as the run would with exit 10).
 */
export async function checkState(file: string): Promise<CheckResult> {
  const name = `state ${file}`;
  let real: string;
  try {
    real = await checkStateWritable(file);
  } catch (err) {
    return fail(name, messageOf(err), hintOf(err));
  }
  // Never opened when a pipe or device: a named pipe with no writer would hang the check.
  const kind = specialKind(file);
  if (kind) return fail(name, `${kind}, not a file`, 'point --state at a regular file');
  let text: string;
  try {
    text = await fs.readFile(real, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok(name, 'not there yet: the first run creates it');
    return fail(name, `cannot be read: ${messageOf(err)}`, 'check its permissions');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(name, 'not valid JSON (damaged?)', 'restore it from a backup, or remove it to start afresh');
  }
  // The check feed --state makes: a file doctor calls fine is one the next run reads, and one it refuses fails here.
  const { state, entry } = checkStateFile(parsed);
  if (state === undefined)
    return entry === undefined
      ? fail(name, 'not a recall-feed state file (version 1)', 'point --state at the file feed --state writes')
      : fail(name, `damaged: ${entry}`, 'restore it from a backup, or remove it to start afresh');
  const ids = Object.keys(state.seen).length;
  const pending = state.pending?.length ?? 0;
  const detail = `${ids} ids remembered${pending ? `, ${pending} recalls with deliveries still owed` : ''}`;
  return pending ? warn(name, detail, 'the next run with the same actions delivers them') : ok(name, detail);
}

/**
 * The run lock beside a file, found as a run finds it (links followed): free, held by a running job, or left by a run
 * that has ended (killed), which the next run on this host takes over at once (run-lock-holder.ts).
 */
export async function checkLock(file: string): Promise<CheckResult> {
  const name = `lock ${file}`;
  const { default: lockfile } = await import('proper-lockfile');
  try {
    const where = await resolveTargetPath(file).catch(() => undefined);
    const locked = where?.kind === 'file' ? where.path : file;
    // Where and when a run sees it: its sidecar lock, stale once not refreshed for the run lock's interval.
    const held = await lockfile.check(locked, {
      realpath: false,
      lockfilePath: lockDir(locked),
      stale: DEFAULT_STALE_MS,
    });
    if (!held) return ok(name, 'free');
    const holder = await readHolder(locked);
    if (await holderEnded(locked, holder))
      return ok(name, `left by ${describeHolder(holder)}, which has ended: the next run takes it over at once`);
    return warn(
      name,
      `held: ${describeHolder(holder)} is using it now`,
      `let it finish; the lock of a run that was killed is taken over at once on its host, after ${DEFAULT_STALE_MS / 1000} s elsewhere`,
    );
  } catch (err) {
    return fail(name, messageOf(err));
  }
}
