// The config file: named profiles of settings, {"profiles":{"<name>":{"<key>":value}}}, 0600 in a 0700 folder.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../files/atomic-write.js';
import { ConfigReadError, ConfigWriteError, fsReason } from './config-errors.js';
import { configFilePath } from './paths.js';
import type { ConfigValue } from './config-keys.js';
import { validateProfileName } from './config-keys.js';

export { ConfigReadError, ConfigWriteError } from './config-errors.js';
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

const isPermissionError = (err: unknown) =>
  ['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException | undefined)?.code ?? '');

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
  if (err instanceof ConfigShapeError) return new ConfigReadError(file, err.message, err);
  if (err instanceof SyntaxError) return new ConfigReadError(file, `it is not valid JSON (${err.message})`, err);
  return new ConfigReadError(file, fsReason(err), err);
}

export class ConfigStore {
  /** The config file (which may not exist yet). */
  readonly path: string;
  /** Why the file cannot be written, when its directory could not be created or read; reads then see an empty store. */
  readonly unwritableReason: string | undefined;
  readonly #unwritableCause: unknown;
  /** What open() read: reads are served from it; a write reads the file again, to keep another process's change. */
  #data: Record<string, unknown> = {};

  private constructor(file: string, unwritable?: unknown) {
    this.path = file;
    this.#unwritableCause = unwritable;
    this.unwritableReason = unwritable === undefined ? undefined : fsReason(unwritable);
  }

  /** Opens the store and reads the file once, so a damaged file is reported before any command runs. */
  static open(options: ConfigStoreOptions = {}): ConfigStore {
    const file = configFilePath(options.dir, options.env);
    try {
      // Only a directory we create is tightened; a user's existing directory keeps its mode.
      const dir = path.dirname(file);
      if (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) fs.chmodSync(dir, 0o700);
    } catch (err) {
      // Read-only HOME, a file in the way: nothing to read, and any write reports why.
      return new ConfigStore(file, err);
    }
    const store = new ConfigStore(file);
    try {
      store.#data = store.#read();
    } catch (err) {
      // A directory we may not look into: nothing we could read, and any write reports why.
      const { cause } = err as ConfigReadError;
      if (isPermissionError(cause) && !fs.existsSync(file)) return new ConfigStore(file, cause);
      throw err;
    }
    return store;
  }

  get(profile: string, key: string): ConfigValue | undefined {
    const values = this.#profiles()[profile];
    const value = values && Object.hasOwn(values, key) ? values[key] : undefined;
    return typeof value === 'string' || typeof value === 'number' ? value : undefined;
  }

  /** Stores a value that validateConfigValue has already checked. */
  set(profile: string, key: string, value: ConfigValue): void {
    validateProfileName(profile);
    const data = this.#readForWrite();
    const profiles = (data.profiles ?? {}) as Profiles;
    const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : {};
    this.#write(data, { ...profiles, [profile]: { ...values, [key]: value } });
  }

  /** Removes a key; a profile left empty is removed too. Returns whether anything was removed. */
  unset(profile: string, key: string): boolean {
    const data = this.#readForWrite();
    const profiles = (data.profiles ?? {}) as Profiles;
    const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : undefined;
    if (!values || !Object.hasOwn(values, key)) return false;
    const rest = { ...values };
    delete rest[key];
    const next = { ...profiles };
    if (Object.keys(rest).length === 0) delete next[profile];
    else next[profile] = rest;
    this.#write(data, next);
    return true;
  }

  /** The profile's settings, secrets included (mask them for display); {} for an unknown profile. */
  list(profile: string): Record<string, ConfigValue> {
    const profiles = this.#profiles();
    const values = Object.hasOwn(profiles, profile) ? profiles[profile]! : {};
    const result: Record<string, ConfigValue> = {};
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'string' || typeof value === 'number') result[key] = value;
    }
    return result;
  }

  profiles(): string[] {
    return Object.keys(this.#profiles());
  }

  /** The whole file as it is now; {} when there is none. */
  #read(): Record<string, unknown> {
    if (this.#unwritableCause !== undefined) return {};
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw readError(this.path, err);
    }
    try {
      return deserialize(text);
    } catch (err) {
      throw readError(this.path, err);
    }
  }

  #profiles(): Profiles {
    return (this.#data.profiles ?? {}) as Profiles;
  }

  /** The file as it is now, for a change: another process's edit since open() is kept, never overwritten. */
  #readForWrite(): Record<string, unknown> {
    if (this.#unwritableCause !== undefined) {
      throw new ConfigWriteError(this.path, this.unwritableReason ?? 'unknown', this.#unwritableCause);
    }
    return this.#read();
  }

  /** Writes the profiles into `current` (whatever else the file holds is kept), tab-indented as conf wrote it. */
  #write(current: Record<string, unknown>, profiles: Profiles): void {
    const data = { ...current, profiles };
    try {
      writeFileAtomicSync(this.path, JSON.stringify(data, undefined, '\t'));
    } catch (err) {
      throw new ConfigWriteError(this.path, fsReason(err), err);
    }
    this.#data = data;
  }
}
