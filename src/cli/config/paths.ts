// Where the config file lives, computed without loading conf (so `config path` stays cheap).
import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * conf's own default directory (env-paths with projectSuffix ''), computed here because the directory
 * must exist, with mode 0700, before conf's constructor creates it with 0755.
 */
export function defaultConfigDir(env: Env = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'recall-feed');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'recall-feed', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'recall-feed');
}

/** The config file: `<dir>/config.json`, where dir is RECALL_FEED_CONFIG_DIR or the platform's default. */
export function configFilePath(dir: string | undefined, env?: Env): string {
  return path.join(path.resolve(dir ?? defaultConfigDir(env)), 'config.json');
}
