// Where the config file lives (RECALL_FEED_CONFIG_DIR, else the platform's config folder), and the cache folder.
import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * An XDG base folder variable (XDG_CONFIG_HOME, XDG_CACHE_HOME) when it holds an absolute path; else undefined. The XDG
 * Base Directory spec makes a relative path there invalid, to be ignored: read against the working folder, it would
 * name another config (or cache) in each folder a command runs in.
 */
export function xdgHome(value: string | undefined): string | undefined {
  return value && path.isAbsolute(value) ? value : undefined;
}

/**
 * The platform's config directory, where the conf package (env-paths, projectSuffix '') kept the file in
 * earlier versions: files written then are still found.
 */
export function defaultConfigDir(env: Env = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'recall-feed');
  if (platform === 'win32')
    return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'recall-feed', 'Config');
  return path.join(xdgHome(env.XDG_CONFIG_HOME) ?? path.join(home, '.config'), 'recall-feed');
}

/** The config file: `<dir>/config.json`, where dir is RECALL_FEED_CONFIG_DIR or the platform's default. */
export function configFilePath(dir: string | undefined, env?: Env): string {
  return path.join(path.resolve(dir ?? defaultConfigDir(env)), 'config.json');
}

/**
 * The folder of what recall-feed keeps only to go faster (match --archive's state): RECALL_FEED_CACHE_DIR, else the
 * platform's cache folder ($XDG_CACHE_HOME when absolute, else ~/.cache, on Linux). Anything in it may be deleted at
 * any time.
 */
export function cacheFolder(env: Env, platform = process.platform, home = env.HOME || os.homedir()): string {
  if (env.RECALL_FEED_CACHE_DIR) return path.resolve(env.RECALL_FEED_CACHE_DIR);
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'recall-feed');
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'recall-feed', 'Cache');
  return path.join(xdgHome(env.XDG_CACHE_HOME) ?? path.join(home, '.cache'), 'recall-feed');
}
