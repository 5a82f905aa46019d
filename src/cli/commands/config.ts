// `recall-feed config`: set, get, unset and list profile settings; the key is read from stdin and shown masked.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../../runtime/cli-errors.js';
import type { Context } from '../../runtime/context.js';
import { resolveProfileName, type GlobalFlags } from '../../runtime/settings.js';
import { action, type NoOptions, type OptionsOf } from './define-action.js';
import { defineGroup } from './define-command.js';
import { readSecret } from '../../runtime/terminal/read-secret.js';
import { configPath, openConfigStore, warnUnknownKeys } from '../../runtime/config/open-store.js';
import { SETTINGS } from '../../runtime/settings-table.js';

/** The settable secrets, from the settings table: read from stdin, shown masked. */
const secretKeys = () => SETTINGS.filter((row) => row.key !== undefined && row.secret).map((row) => row.key);

/** --show-secrets, of `config get` and `config list`. */
function addShowSecrets<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd.option('--show-secrets', `print the secrets (${secretKeys().join(', ')}) in full`);
}

type ConfigOptions = OptionsOf<ReturnType<typeof addShowSecrets<[], NoOptions, NoOptions>>>;

/** Secrets (the table's) are read from stdin (never argv, never shell history) and shown masked; their prompts. */
const SECRET_PROMPTS: Record<string, string> = {
  'api-key': 'API key: ',
  webhook: 'webhook URL: ',
  'smtp-url': 'SMTP URL: ',
  db: 'archive file or postgres:// URL: ',
  monitor: 'monitor URL: ',
};

/** The settable keys with what each is, from the settings table (`config --help`). */
function keysHelp(): string {
  const rows = SETTINGS.filter((row) => row.key !== undefined);
  const width = Math.max(...rows.map((row) => (row.key as string).length));
  return rows.map((row) => `  ${(row.key as string).padEnd(width)}  ${row.description}`).join('\n');
}

export default defineGroup({
  name: 'config',
  summary: 'manage settings per profile (api-key, base-url, format, sources, page-size, timeout, ...)',
  flags: (cmd) =>
    cmd.addHelpText(
      'after',
      `
Keys (what each accepts, its flag and variable: docs/settings-table.md, recall-feed help environment):
${keysHelp()}

Examples:
  echo "$KEY" | recall-feed config set api-key        store the key (read from stdin, never from argv)
  recall-feed config set api-key                      prompt for it, without echo
  recall-feed --profile prod config set format csv
  recall-feed config list --show-secrets
  recall-feed config path

The file is created with mode 0600 in a folder with mode 0700; RECALL_FEED_CONFIG_DIR moves it.`,
    ),
  subcommands: (config, ctx) => {
    config
      .command('set <key> [value]')
      .description(`set a value; without a value (${secretKeys().join(', ')}) it is read from stdin`)
      .action(action(ctx, async () => runSet));
    addShowSecrets(
      config.command('get <key>').description('print a value (secrets masked unless --show-secrets)'),
    ).action(action(ctx, async () => runGet));
    config
      .command('unset <key>')
      .description('remove a value')
      .action(action(ctx, async () => runUnset));
    addShowSecrets(
      config.command('list').description("print the profile's values (secrets masked unless --show-secrets)"),
    ).action(action(ctx, async () => runList));
    config
      .command('path')
      .description('print where the config file is')
      .action(action(ctx, async () => runPath));
  },
});

/**
 * A stored key or value as `config get` and `config list` print it, on a terminal or not: a hand-edited file (or one
 * someone else wrote) may hold ESC, C1 or bidi controls, which would drive the terminal, or a line break, which would
 * forge a `key=value` line. Each is written as an escape; values `config set` accepts hold none, and print as they are.
 */
async function shown(text: string): Promise<string> {
  const { escapeTerminalControls, LINE_BREAKS, unicodeEscape } = await import('../../output/control-escapes.js');
  return escapeTerminalControls(text).replace(LINE_BREAKS, unicodeEscape);
}

/** A value as printed: a secret masked (unless --show-secrets), then escaped (a masked key keeps its last characters). */
async function display(key: string, value: string | number, showSecrets: boolean | undefined): Promise<string> {
  return shown(await masked(key, value, showSecrets));
}

async function masked(key: string, value: string | number, showSecrets: boolean | undefined): Promise<string> {
  const { isSecretKey } = await import('../../runtime/config/config-keys.js');
  if (!isSecretKey(key) || showSecrets) return String(value);
  if (key === 'db') {
    // A file name is no secret; a database URL shows everything but its password.
    const { maskDbUrl } = await import('../../archive/db-target.js');
    return maskDbUrl(String(value));
  }
  if (key === 'webhook' || key === 'monitor') {
    // A webhook's or a healthchecks URL's path is its token: only the host is shown.
    const { maskWebhookUrl } = await import('../../actions/webhook-url.js');
    return maskWebhookUrl(String(value));
  }
  if (key === 'smtp-url') {
    const { maskSmtpUrl } = await import('../../actions/email-smtp.js');
    return maskSmtpUrl(String(value));
  }
  const { maskSecret } = await import('../../runtime/config/mask.js');
  return maskSecret(String(value));
}

async function runSet(_opts: unknown, globals: GlobalFlags, ctx: Context, args: string[]): Promise<void> {
  const [key, given] = args as [string, string | undefined];
  const { isSecretKey, validateConfigKey, validateConfigValue } = await import('../../runtime/config/config-keys.js');
  // An unknown key is named as such (with a suggestion) before anything is asked for.
  validateConfigKey(key);
  let raw = given;
  if (raw === undefined) {
    if (!isSecretKey(key)) throw new UsageError(`config set ${key} needs a value`);
    raw = await readSecret(ctx, key, SECRET_PROMPTS[key] ?? `${key}: `);
  }
  const value = validateConfigValue(key, raw.trim());
  if (key === 'case-sla') await refuseUnknownCalendar(String(value), raw.trim());
  const store = await openConfigStore(ctx.env, ctx.stderr);
  const profile = resolveProfileName(globals, ctx.env);
  // Told to stop (Ctrl-C, SIGTERM; also while the command loaded, as the launcher keeps it): nothing is changed.
  ctx.signal.throwIfAborted();
  await store.set(profile, key, value);
  ctx.stderr.write(`saved ${key} for profile '${profile}' in ${store.path}\n`);
}

/**
 * The table's parser checks a case-sla's form; whether date-holidays knows its country (`2wd:ZZ`) takes loading that
 * package, so it is asked here, before the value is stored, rather than by every later `match --open-cases`.
 */
async function refuseUnknownCalendar(value: string, given: string): Promise<void> {
  const { unknownCaseSlaCalendar } = await import('../../jobs/matching/sla.js');
  const country = await unknownCaseSlaCalendar(value);
  if (country === undefined) return;
  const { ConfigValueError } = await import('../../runtime/config/config-errors.js');
  throw new ConfigValueError(`invalid value "${given}" for case-sla: no public holidays known for ${country}`, {
    hint: `expected ${SETTINGS.find((row) => row.key === 'case-sla')?.values}; <country>: a two-letter code such as FR, DE, GB or US`,
  });
}

async function runGet(opts: ConfigOptions, globals: GlobalFlags, ctx: Context, args: string[]): Promise<void> {
  const [key] = args as [string];
  const { validateConfigKey } = await import('../../runtime/config/config-keys.js');
  validateConfigKey(key);
  const store = await openConfigStore(ctx.env, ctx.stderr);
  const value = store.get(resolveProfileName(globals, ctx.env), key);
  if (value === undefined) return;
  ctx.stdout.write(`${await display(key, value, opts.showSecrets)}\n`);
}

/** A key no setting reads is removed too when the profile holds it (a typo in a hand edit), and said so. */
async function runUnset(_opts: unknown, globals: GlobalFlags, ctx: Context, args: string[]): Promise<void> {
  const [key] = args as [string];
  const { isConfigKey, shownKey, validateConfigKey } = await import('../../runtime/config/config-keys.js');
  const profile = resolveProfileName(globals, ctx.env);
  const store = await openConfigStore(ctx.env, ctx.stderr);
  ctx.signal.throwIfAborted();
  if (isConfigKey(key) || store.get(profile, key) === undefined) {
    validateConfigKey(key);
    await store.unset(profile, key);
    return;
  }
  await store.unset(profile, key);
  ctx.stderr.write(`removed ${shownKey(key)}, which is no config key, from profile '${profile}' in ${store.path}\n`);
}

async function runList(opts: ConfigOptions, globals: GlobalFlags, ctx: Context): Promise<void> {
  const store = await openConfigStore(ctx.env, ctx.stderr);
  const profile = resolveProfileName(globals, ctx.env);
  const values = store.list(profile);
  await warnUnknownKeys(values, profile, store.path, ctx.stderr);
  for (const [key, value] of Object.entries(values)) {
    ctx.stdout.write(`${await shown(key)}=${await display(key, value, opts.showSecrets)}\n`);
  }
}

async function runPath(_opts: unknown, _globals: GlobalFlags, ctx: Context): Promise<void> {
  ctx.stdout.write(`${configPath(ctx.env)}\n`);
}
