// The global flags, declared once: main.ts adds them to the program, and their inferred types type every command's globals.
import { type Command, Option } from '@commander-js/extra-typings';
import { FORMATS } from '../output/formats.js';
import { flagHelp } from '../runtime/setting-flags.js';
import { LOG_FORMATS } from '../runtime/terminal/json-log.js';

/** Adds the global flags to the program; the result's type carries them (see `Program`). The settings' help is the settings table's. */
export function addGlobalOptions(program: Command) {
  return program
    .addOption(new Option('--api-key <key>', flagHelp('api-key')))
    .addOption(new Option('--base-url <url>', flagHelp('base-url')))
    .addOption(new Option('--profile <name>', flagHelp('profile')))
    .addOption(
      new Option(
        '-f, --format <format>',
        `${FORMATS.join(', ')} for records (default: table on a terminal, else jsonl); each command's --help lists its own`,
      ),
    )
    .addOption(new Option('-o, --output <file>', 'write to this file instead of stdout (atomically)'))
    .addOption(new Option('--no-color', 'no colours (also NO_COLOR)'))
    .addOption(new Option('-q, --quiet', 'no progress, countdowns or summaries on stderr'))
    .addOption(new Option('-v, --verbose', 'one stderr line per request (never the key)'))
    .addOption(new Option('--timeout <seconds>', flagHelp('timeout')))
    .addOption(new Option('--max-wait <seconds>', flagHelp('max-wait')))
    .addOption(new Option('--retries <n>', flagHelp('retries')))
    .addOption(new Option('--max-response-mb <n>', flagHelp('max-response-mb')))
    .addOption(new Option('--pace <spec>', flagHelp('pace')))
    .addOption(new Option('--sandbox', 'run against a built-in sandbox with generated data; no key needed'))
    .addOption(new Option('--sandbox-now <time>', flagHelp('sandbox-now')))
    .addOption(new Option('--allow-insecure-http', 'allow sending the key over plain http to a non-loopback host'))
    .addOption(new Option('--log-format <format>', flagHelp('log-format')).choices(LOG_FORMATS));
}

/** The program with the global flags: each command is declared on it, so its globals' types are inferred. */
export type Program = ReturnType<typeof addGlobalOptions>;
