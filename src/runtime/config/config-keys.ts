// The settable config keys (the settings table's rows with a key) and their validation by the table's parsers.
import { editDistanceWithin } from '../../filters/edit-distance.js';
import { PROFILE_NAME, SettingValueError } from '../settings-parsers.js';
import { SETTINGS, type SettingRow } from '../settings-table.js';
import { UsageError } from '../cli-errors.js';
import { shellQuote } from '../shell-quote.js';
import { plainLine } from '../../output/control-escapes.js';
import { ConfigValueError } from './config-errors.js';

export { ConfigValueError } from './config-errors.js';

export type ConfigValue = string | number;

/** A settable key's row: description, the values it accepts, whether it is a secret, its parser. */
export type ConfigKeyInfo = SettingRow & { key: string };

export const CONFIG_KEY_INFO: Readonly<Record<string, ConfigKeyInfo>> = Object.fromEntries(
  SETTINGS.filter((row): row is ConfigKeyInfo => row.key !== undefined).map((row) => [row.key, row]),
);

/** The settable keys, in the order help and `config list` show them. */
export const CONFIG_KEYS = Object.keys(CONFIG_KEY_INFO) as readonly string[];

export function isConfigKey(key: string): boolean {
  return Object.hasOwn(CONFIG_KEY_INFO, key);
}

/** Whether a key holds a secret (the config file must then be private). */
export function isSecretKey(key: string): boolean {
  return isConfigKey(key) && CONFIG_KEY_INFO[key]?.secret === true;
}

function closestKey(key: string): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_.\s]/g, '');
  const same = CONFIG_KEYS.find((k) => squash(k) === squash(key));
  if (same) return same;
  // A typo: the nearest key within a third of the name's length in edits ("timout", "formt").
  // Bounded: a key of a hand-edited file (or the command line) may be a megabyte long, and is then no typo of any.
  const limit = Math.max(1, Math.floor(key.length / 3));
  const near = CONFIG_KEYS.map((k) => ({ k, d: editDistanceWithin(squash(key), squash(k), limit) }))
    .filter(({ d }) => d <= limit)
    .sort((a, b) => a.d - b.d);
  return near[0]?.k;
}

/**
 * A key as a message shows it: quoted, its control characters written as escapes (a hand-edited file's key may hold
 * ESC or a line break, which would drive the terminal or forge a line).
 */
export const shownKey = (key: string) => plainLine(JSON.stringify(key));

/** `unknown config key "pagesize" (did you mean "page-size"?)`: the guess when one is close. */
function unknownKey(key: string): string {
  const guess = closestKey(key);
  return `unknown config key ${shownKey(key)}${guess ? ` (did you mean "${guess}"?)` : ''}`;
}

/** Returns the key when it is settable; otherwise throws ConfigValueError naming the valid keys. */
export function validateConfigKey(key: string): string {
  if (isConfigKey(key)) return key;
  throw new ConfigValueError(`${unknownKey(key)}; valid keys: ${CONFIG_KEYS.join(', ')}`, {
    hint: 'run `recall-feed config --help` to see what each key does',
  });
}

/** A key the profile holds that is no setting (a hand edit, another version's): what a run says of it, and its remedy. */
export interface UnknownProfileKey {
  key: string;
  /** `unknown config key "pagesize" (did you mean "page-size"?) in profile 'default' of <file> is ignored` */
  message: string;
  /** The command that removes it: `recall-feed config unset pagesize`. */
  remedy: string;
}

/** The keys of a profile's stored values that no setting reads, each named with a guess; [] when there are none. */
export function unknownProfileKeys(
  values: Readonly<Record<string, unknown>>,
  profile: string,
  file: string,
): UnknownProfileKey[] {
  const option = profile === 'default' ? '' : ` --profile ${profile}`;
  return Object.keys(values)
    .filter((key) => !isConfigKey(key))
    .map((key) => ({
      key,
      message: `${unknownKey(key)} in profile '${profile}' of ${file} is ignored`,
      // A key no shell line can spell plainly is removed by editing the file.
      remedy:
        shownKey(key) === JSON.stringify(key) && !/[\u0000-\u001f\u007f]/.test(key)
          ? `recall-feed${option} config unset ${shellQuote(key)}`
          : `edit ${file}`,
    }));
}

/**
 * Validates and normalizes a value given on the command line (surrounding whitespace is ignored):
 * numbers for page-size, timeout, max-wait and retries, strings for the rest.
 */
export function validateConfigValue(key: string, raw: string): ConfigValue {
  const info = CONFIG_KEY_INFO[validateConfigKey(key)] as ConfigKeyInfo;
  try {
    return info.parse(raw.trim(), key);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err instanceof SettingValueError && err.configReason !== undefined) {
      throw new ConfigValueError(`invalid value for ${key}: ${err.configReason}`, { hint: err.configHint });
    }
    // A secret is never echoed back, not even a mistyped one.
    const shown = info.secret ? '' : ` "${raw}"`;
    throw new ConfigValueError(`invalid value${shown} for ${key}: expected ${info.values}`);
  }
}

/** Profile names: as PROFILE_NAME says, refused for the config file. */
export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new ConfigValueError(
      `invalid profile name "${name}": use letters, digits, "_", "." and "-", starting with a letter or digit (at most 64)`,
    );
  }
  return name;
}
