// The config file: named profiles of settings, stored by conf as {"profiles":{"<name>":{"<key>":value}}}.
import Conf from 'conf';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigReadError, ConfigWriteError, fsReason } from './errors.js';
import { configFilePath } from './paths.js';
import type { ConfigValue } from './keys.js';
import { validateProfileName } from './keys.js';

export { ConfigReadError, ConfigWriteError } from './errors.js';
export { defaultConfigDir } from './paths.js';

type Profiles = Record<string, Record<string, unknown>>;
type Env = Record<string, string | undefined>;

export interface ConfigStoreOptions {
  /** Directory of config.json (the CLI passes RECALL_FEED_CONFIG_DIR); default: the platform's config dir. */
  dir?: string;
  /** Environment for the default directory (XDG_CONFIG_HOME, APPDATA). Default: process.env. */
  env?: Env;
}

class ConfigShapeError extends Error {}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses the file; anything but {"profiles": {name: {...}}} is an error, never a reason to start over. */
function deserialize(text: string): Record<string, unknown> {
  const data: unknown = JSON.parse(text);
  if (!isPlainObject(data)) throw new ConfigShapeError('it does not hold a JSON object');
  const { profiles } = data;
  if (profiles !== undefined && (!isPlainObject(profiles) || !Object.values(profiles).every(isPlainObject))) {
    throw new ConfigShapeError('"profiles" is not an object of profile objects');
  }
  return data;
}

function readError(file: string, err: unknown): ConfigReadError {
  if (err instanceof ConfigReadError) return err;
  if (err instanceof ConfigShapeError) return new ConfigReadError(file, err.message, err);
  if (err instanceof SyntaxError) return new ConfigReadError(file, `it is not valid JSON (${err.message})`, err);
  return new ConfigReadError(file, fsReason(err), err);
}

export class ConfigStore {
  /** The config file (which may not exist yet). */
  readonly path: string;
  /** Why the file cannot be written, when the directory could not be created; reads then see an empty store. */
  readonly unwritableReason: string | undefined;
  readonly #conf: Conf<Record<string, unknown>> | undefined;
  readonly #unwritableCause: unknown;

  private constructor(file: string, conf: Conf<Record<string, unknown>> | undefined, unwritable?: unknown) {
    this.path = file;
    this.#conf = conf;
    this.#unwritableCause = unwritable;
    this.unwritableReason = unwritable === undefined ? undefined : fsReason(unwritable);
  }

  static open(options: ConfigStoreOptions = {}): ConfigStore {
    const file = configFilePath(options.dir, options.env);
    const dir = path.dirname(file);
    try {
      // Only a directory we create is tightened; a user's existing directory keeps its mode.
      if (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) fs.chmodSync(dir, 0o700);
    } catch (err) {
      // Read-only HOME, a file in the way: nothing to read, and any write reports why.
      return new ConfigStore(file, undefined, err);
    }
    try {
      const conf = new Conf<Record<string, unknown>>({
        projectName: 'recall-feed',
        projectSuffix: '',
        cwd: dir,
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
        deserialize,
      });
      return new ConfigStore(file, conf);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code === 'EACCES' || code === 'EPERM' || code === 'EROFS') && !fs.existsSync(file)) {
        return new ConfigStore(file, undefined, err);
      }
      throw readError(file, err);
    }
  }

  get(profile: string, key: string): ConfigValue | undefined {
    const values = this.#profiles()[profile];
    const value = values && Object.hasOwn(values, key) ? values[key] : undefined;
    return typeof value === 'string' || typeof value === 'number' ? value : undefined;
  }

  /** Stores a value that validateConfigValue has already checked. */
  set(profile: string, key: string, value: ConfigValue): void {
    validateProfileName(profile);
    const profiles = this.#profiles();
    const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : {};
    this.#write({ ...profiles, [profile]: { ...values, [key]: value } });
  }

  /** Removes a key; a profile left empty is removed too. Returns whether anything was removed. */
  unset(profile: string, key: string): boolean {
    const profiles = this.#profiles();
    const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : undefined;
    if (!values || !Object.hasOwn(values, key)) return false;
    const rest = { ...values };
    delete rest[key];
    const next = { ...profiles };
    if (Object.keys(rest).length === 0) delete next[profile];
    else next[profile] = rest;
    this.#write(next);
    return true;
  }

  /** The profile's settings, secrets included (mask them for display); {} for an unknown profile. */
  list(profile: string): Record<string, ConfigValue> {
    const values = Object.hasOwn(this.#profiles(), profile) ? this.#profiles()[profile]! : {};
    const result: Record<string, ConfigValue> = {};
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'string' || typeof value === 'number') result[key] = value;
    }
    return result;
  }

  profiles(): string[] {
    return Object.keys(this.#profiles());
  }

  #profiles(): Profiles {
    if (!this.#conf) return {};
    try {
      // conf re-reads the file on every access, so another process's change is seen.
      const profiles = this.#conf.get('profiles');
      return isPlainObject(profiles) ? (profiles as Profiles) : {};
    } catch (err) {
      throw readError(this.path, err);
    }
  }

  #write(profiles: Profiles): void {
    if (!this.#conf) throw new ConfigWriteError(this.path, this.unwritableReason ?? 'unknown', this.#unwritableCause);
    try {
      this.#conf.set('profiles', profiles);
    } catch (err) {
      if (err instanceof SyntaxError || err instanceof ConfigShapeError) throw readError(this.path, err);
      throw new ConfigWriteError(this.path, fsReason(err), err);
    }
  }
}
