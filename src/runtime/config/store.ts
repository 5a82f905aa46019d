// The config file: named profiles of settings, {"profiles":{"<name>":{"<key>":value}}}, kept by conf: 0600 in a 0700 folder.
//
// conf (tab-indented JSON, written atomically through a temporary file with fsync, a fresh temporary name
// per write) is loaded only when the file exists or is written: it costs tens of ms to import, and its
// constructor creates the folder, which a run that only reads must never do (and which throws on a
// read-only HOME). zod checks the file's shape; conf's JSON schema (ajv) is not used.
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { ConfigReadError, ConfigShapeError, ConfigWriteError, fsReason } from './config-errors.js';
import type { ConfigValue } from './config-keys.js';
import { isSecretKey, validateProfileName } from './config-keys.js';
import { withConfigLock } from './config-lock.js';
import { configFilePath } from './paths.js';
import type { ConfigData, Profiles } from './config-shape.js';
import { permissionWarnings, tightenFolder } from './permissions.js';

export { ConfigReadError, ConfigWriteError } from './config-errors.js';
export { defaultConfigDir } from './paths.js';

type Env = Record<string, string | undefined>;

export interface ConfigStoreOptions {
  /** Directory of config.json (the CLI passes RECALL_FEED_CONFIG_DIR); default: the platform's config dir. */
  dir?: string;
  /** Environment for the default directory (XDG_CONFIG_HOME, APPDATA). Default: process.env. */
  env?: Env;
  /** Told of a config file or folder others may read or write (as ssh warns); the next write fixes it. */
  warn?: (message: string) => void;
}

const NO_FILE = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

function readError(file: string, err: unknown): ConfigReadError {
  if (err instanceof ConfigShapeError) return new ConfigReadError(file, err.message, err);
  if (err instanceof SyntaxError) return new ConfigReadError(file, `it is not valid JSON (${err.message})`, err);
  return new ConfigReadError(file, fsReason(err), err);
}

/** conf on our file: `cwd` is the folder, its own name and format are today's, so old files are read as they are. */
async function openConf(file: string): Promise<Conf<ConfigData>> {
  const [{ default: ConfClass }, { checkShape }] = await Promise.all([import('conf'), import('./config-shape.js')]);
  return new ConfClass<ConfigData>({
    cwd: path.dirname(file),
    configName: path.basename(file, '.json'),
    fileExtension: 'json',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    deserialize: (text) => checkShape(JSON.parse(text)),
  });
}

export class ConfigStore {
  /** The config file (which may not exist yet). */
  readonly path: string;
  #conf: Conf<ConfigData> | undefined;
  /** What open() read: reads are served from it; a write reads the file again, to keep another process's change. */
  #data: ConfigData = {};

  private constructor(file: string) {
    this.path = file;
  }

  /**
   * Opens the store and reads the file once, so a damaged file is reported before any command runs.
   * Without a file nothing is loaded, created or written.
   */
  static async open(options: ConfigStoreOptions = {}): Promise<ConfigStore> {
    const store = new ConfigStore(configFilePath(options.dir, options.env));
    let stat: fs.Stats;
    try {
      stat = fs.statSync(store.path);
    } catch (err) {
      // No file, or a folder we may not look into: nothing to read; a write reports why it cannot.
      if (NO_FILE.has((err as NodeJS.ErrnoException).code ?? '')) return store;
      throw readError(store.path, err);
    }
    try {
      store.#conf = await openConf(store.path);
      store.#data = store.#conf.store;
    } catch (err) {
      throw readError(store.path, err);
    }
    if (options.warn) {
      for (const warning of permissionWarnings(store.path, stat, store.#holdsSecret())) options.warn(warning);
    }
    return store;
  }

  get(profile: string, key: string): ConfigValue | undefined {
    const values = this.#profiles()[profile];
    return values && Object.hasOwn(values, key) ? values[key] : undefined;
  }

  /** Stores a value that validateConfigValue has already checked. */
  async set(profile: string, key: string, value: ConfigValue): Promise<void> {
    validateProfileName(profile);
    await this.#prepareWrite();
    await withConfigLock(this.path, () => {
      const data = this.#readForWrite();
      const profiles = data.profiles ?? {};
      const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : {};
      this.#write(data, { ...profiles, [profile]: { ...values, [key]: value } });
    });
  }

  /** Removes a key; a profile left empty is removed too. Returns whether anything was removed. */
  async unset(profile: string, key: string): Promise<boolean> {
    await this.#prepareWrite();
    return withConfigLock(this.path, () => {
      const data = this.#readForWrite();
      const profiles = data.profiles ?? {};
      const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : undefined;
      if (!values || !Object.hasOwn(values, key)) return false;
      const rest = { ...values };
      delete rest[key];
      const next = { ...profiles };
      if (Object.keys(rest).length === 0) delete next[profile];
      else next[profile] = rest;
      this.#write(data, next);
      return true;
    });
  }

  /** The profile's settings, secrets included (mask them for display); {} for an unknown profile. */
  list(profile: string): Record<string, ConfigValue> {
    const profiles = this.#profiles();
    return Object.hasOwn(profiles, profile) ? { ...profiles[profile]! } : {};
  }

  profiles(): string[] {
    return Object.keys(this.#profiles());
  }

  #profiles(): Profiles {
    return this.#data.profiles ?? {};
  }

  #holdsSecret(): boolean {
    return Object.values(this.#profiles()).some((values) => Object.keys(values).some(isSecretKey));
  }

  /** The folder made (0700) or tightened, and conf loaded, before a change. */
  async #prepareWrite(): Promise<void> {
    try {
      tightenFolder(path.dirname(this.path));
      this.#conf ??= await openConf(this.path);
    } catch (err) {
      if (err instanceof ConfigShapeError || err instanceof SyntaxError) throw readError(this.path, err);
      throw new ConfigWriteError(this.path, fsReason(err), err);
    }
  }

  /**
   * The file as it is now, for a change (another process's edit since open() is kept, never overwritten).
   * Read, change and write run with no await between them, so two changes in one process never interleave,
   * and under the config lock (config-lock.ts), so two processes' changes never do either.
   */
  #readForWrite(): ConfigData {
    try {
      return this.#conf!.store;
    } catch (err) {
      throw readError(this.path, err);
    }
  }

  /** Writes the profiles into `current` (whatever else the file holds is kept); conf writes it 0600. */
  #write(current: ConfigData, profiles: Profiles): void {
    const data = { ...current, profiles };
    try {
      this.#conf!.store = data;
    } catch (err) {
      throw new ConfigWriteError(this.path, fsReason(err), err);
    }
    this.#data = data;
  }
}
