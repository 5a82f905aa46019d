// Where the CLI's config file is and how it is opened: RECALL_FEED_CONFIG_DIR, else the platform's folder.
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

/** The config file's path, without loading the store. */
export function configPath(env: Env): string {
  return configFilePath(configDir(env), env);
}
