// Where the config file lives: RECALL_FEED_CONFIG_DIR, else the platform's config directory.
import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * The platform's config directory, where the conf package (env-paths, projectSuffix '') kept the file in
 * earlier versions: files written then are still found.
 */
export function defaultConfigDir(env: Env = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'recall-feed');
  if (platform === 'win32')
    return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'recall-feed', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'recall-feed');
}

/** The config file: `<dir>/config.json`, where dir is RECALL_FEED_CONFIG_DIR or the platform's default. */
export function configFilePath(dir: string | undefined, env?: Env): string {
  return path.join(path.resolve(dir ?? defaultConfigDir(env)), 'config.json');
}
