// The global flags, declared once: main.ts adds them to the program, and their inferred types type every command's globals.
import { type Command, Option } from '@commander-js/extra-typings';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from '../api/constants.js';
import { FORMATS } from '../output/formats.js';
import { LOG_FORMATS } from '../runtime/terminal/json-log.js';

/** Adds the global flags to the program; the result's type carries them (see `Program`). */
export function addGlobalOptions(program: Command) {
  return program
    .addOption(new Option('--api-key <key>', 'API key (env RECALL_FEED_API_KEY or DEEPRECALL_API_KEY; or the profile)'))
    .addOption(new Option('--base-url <url>', `API address (env RECALL_FEED_BASE_URL; default ${DEFAULT_BASE_URL})`))
    .addOption(new Option('--profile <name>', 'config profile (env RECALL_FEED_PROFILE; default "default")'))
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
    .addOption(
      new Option('--timeout <seconds>', `per-request timeout, headers and body (default ${DEFAULT_TIMEOUT_MS / 1000})`),
    )
    .addOption(
      new Option(
        '--max-wait <seconds>',
        `longest wait for a rate limit before giving up (default ${DEFAULT_MAX_WAIT_MS / 1000})`,
      ),
    )
    .addOption(
      new Option('--retries <n>', `retries of 5xx, network errors and cut bodies (default ${DEFAULT_RETRIES})`),
    )
    .addOption(
      new Option(
        '--max-response-mb <n>',
        `largest answer read, in MiB after decompression (default ${DEFAULT_MAX_RESPONSE_BYTES / 2 ** 20})`,
      ),
    )
    .addOption(
      new Option(
        '--pace <spec>',
        "own pacing, e.g. minute=30/1m: fewer requests than the API allows, or a sandbox's shrunken window",
      ),
    )
    .addOption(new Option('--sandbox', 'run against a built-in sandbox with generated data; no key needed'))
    .addOption(new Option('--allow-insecure-http', 'allow sending the key over plain http to a non-loopback host'))
    .addOption(
      new Option(
        '--log-format <format>',
        'stderr as text, or json: one object per line (env RECALL_FEED_LOG_FORMAT)',
      ).choices(LOG_FORMATS),
    );
}

/** The program with the global flags: each command is declared on it, so its globals' types are inferred. */
export type Program = ReturnType<typeof addGlobalOptions>;
