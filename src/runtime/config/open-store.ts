// Where the CLI's config file is and how it is opened: RECALL_FEED_CONFIG_DIR, else the platform's folder.
import type { Context } from '../context.js';
import type { ConfigStore } from './store.js';
import { configFilePath } from './paths.js';

type Env = Record<string, string | undefined>;

/** The folder the environment asks for, or undefined for the platform's default. */
function configDir(env: Env): string | undefined {
  return env.RECALL_FEED_CONFIG_DIR || undefined;
}

/**
 * Loads the store only now: commands that never read a profile do not pay for it. `stderr` hears a
 * warning when the file or its folder is open to others.
 */
export async function openConfigStore(env: Env, stderr?: { write(text: string): unknown }): Promise<ConfigStore> {
  const { ConfigStore } = await import('./store.js');
  const warn = stderr ? (message: string) => stderr.write(`warning: ${message}\n`) : undefined;
  return ConfigStore.open({ dir: configDir(env), env, warn });
}

/**
 * One profile's stored values, read once per run: the ops settings (before the run) and the session both
 * need them, so the file is opened (and a permission warning given) once. Kept on the run's context, which
 * a later command line does not share, so a `config set` is always seen by the next run. A key in it that no
 * setting reads (a typo in a hand edit) is ignored, and said so once, as the permission warnings are.
 */
export function readProfile(
  ctx: Pick<Context, 'env' | 'stderr' | 'profiles'>,
  profile: string,
): Promise<Record<string, string | number | undefined>> {
  ctx.profiles ??= new Map();
  let values = ctx.profiles.get(profile);
  if (!values) {
    values = openConfigStore(ctx.env, ctx.stderr).then(async (store) => {
      const stored = store.list(profile);
      await warnUnknownKeys(stored, profile, store.path, ctx.stderr);
      return stored;
    });
    ctx.profiles.set(profile, values);
  }
  return values;
}

/** One warning per key of the profile that no setting reads, with the guess and the command that removes it. */
export async function warnUnknownKeys(
  values: Readonly<Record<string, unknown>>,
  profile: string,
  file: string,
  stderr: { write(text: string): unknown },
): Promise<void> {
  const { unknownProfileKeys } = await import('./config-keys.js');
  for (const { message, remedy } of unknownProfileKeys(values, profile, file)) {
    stderr.write(`warning: ${message}; remove it with: ${remedy}\n`);
  }
}

/** The config file's path, without loading the store. */
export function configPath(env: Env): string {
  return configFilePath(configDir(env), env);
}
