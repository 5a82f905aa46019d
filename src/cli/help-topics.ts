// `recall-feed help environment|exit-codes|formats`: help topics beside the commands' own help, as gh has them.
import { DIGEST_FORMATS, REPORT_FORMATS } from '../output/format-kinds.js';
import { defaultFormat, formatsOfKind, type OutputFormat } from '../output/format-registry.js';
import { FORMATS, formatSpec } from '../output/formats.js';
import { UsageError } from '../runtime/cli-errors.js';
import { nearestNames } from '../runtime/options/column-names.js';
import type { Context } from '../runtime/context.js';
import { EXIT, exitCodeList } from '../runtime/exit-codes.js';
import { longFlag } from '../runtime/setting-flags.js';
import { SETTINGS } from '../runtime/settings-table.js';

/** A setting's variables, as `help environment` and docs/settings-table.md name them: what each sets and what wins. */
export function settingVariables(): readonly (readonly [string, string])[] {
  return SETTINGS.filter((row) => row.env !== undefined).map((row) => {
    const flag = longFlag(row);
    const wins = flag ? `; ${flag} wins` : '';
    const profile = row.key ? `, else the profile's ${row.key}` : '';
    const fallback = row.default === 'none' ? '' : `; default ${row.default}`;
    return [(row.env as readonly string[]).join(', '), `${row.description}${wins}${profile}${fallback}`] as const;
  });
}

/** The other variables recall-feed reads, with what each does (the settings' own come from the settings table). */
export const OTHER_ENVIRONMENT: readonly (readonly [string, string])[] = [
  [
    'RECALL_FEED_CONFIG_DIR',
    'the folder of config.json (default: the platform config folder, $XDG_CONFIG_HOME on Linux)',
  ],
  ['XDG_DATA_HOME', 'where the default archive lives: $XDG_DATA_HOME/recall-feed/recalls.db'],
  [
    'RECALL_FEED_CACHE_DIR',
    "the folder of match --archive's state (default: the platform cache folder, $XDG_CACHE_HOME/recall-feed on Linux)",
  ],
  ['PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE', 'what a postgres:// URL leaves out, as libpq reads them'],
  [
    'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    'proxies, as undici reads them (lower case too, and it wins); loopback never uses one',
  ],
  ['NO_COLOR', 'any non-empty value: no colours (as --no-color)'],
  ['FORCE_COLOR', '1, 2 or 3: 16, 256 or true colours even into a pipe; 0: none'],
  ['TERM', 'dumb: no colours, no spinner'],
  ['CI', 'set: no spinner (one plain line per wait or retry)'],
  ['COLUMNS', 'the table width when the terminal does not say'],
  [
    'RECALL_FEED_DB_LOCK_WAIT',
    "seconds a writer waits for another writer's lock on the archive (default 30), then exit 13 (PostgreSQL) or 9 (a SQLite file: busy)",
  ],
  ['RECALL_FEED_OUTBOX_LEASE', "seconds a host's claim on a sync action lasts before another host may deliver it"],
  ['RECALL_FEED_FORCE_TTY', '1: treat stdout and stderr as a terminal (tests of the table)'],
];

function environmentText(): string {
  const settings = settingVariables();
  const column = (rows: readonly (readonly [string, string])[]) => Math.max(...rows.map(([name]) => name.length));
  const lines = (rows: readonly (readonly [string, string])[], wrapAt?: number) =>
    rows.map(([name, what]) => {
      const width = column(rows);
      const text = wrapAt === undefined ? what : wrap(what, wrapAt - width - 4, ' '.repeat(width + 4));
      return `  ${name.padEnd(width)}  ${text}`;
    });
  return `Environment variables recall-feed reads. A flag wins over the environment, which wins over the
profile (config set), which wins over the default.

Settings (every setting, with its flag and config key: docs/settings-table.md):
${lines(settings, 100).join('\n')}

Others:
${lines(OTHER_ENVIRONMENT).join('\n')}

--exec commands get this environment without the key, RECALL_FEED_WEBHOOK, RECALL_FEED_SMTP_URL,
RECALL_FEED_MONITOR and PGPASSWORD, and without RECALL_FEED_DB and the proxy variables when their URL
holds a password.
`;
}

/** `text` cut into lines of at most `width` characters at spaces, each after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

function exitCodesText(): string {
  const lines = exitCodeList().map(
    ({ code, meaning }) => `  ${String(code).padStart(3)}  ${wrap(meaning.detail, 93, ' '.repeat(7))}`,
  );
  return `Exit codes: one per kind of failure, the same for every command. "No results" is ${EXIT.ok}.

${lines.join('\n')}

The error classes behind each code: docs/exit-codes.md.
`;
}

/** `  name  summary` and, under it, what the format can do, its aliases and its -o extensions. */
function formatLines(formats: readonly OutputFormat[]): string[] {
  const width = Math.max(...formats.map((f) => f.name.length));
  const yes = (can: boolean, what: string) => (can ? [what] : []);
  return formats.map((f) => {
    const can = [
      ...yes(f.streams, 'streams'),
      ...yes(f.appendable, '--append'),
      ...yes(f.resumable, '--resume'),
      ...yes(f.needsFile, 'needs -o <file>'),
      ...yes(f.binary, 'binary'),
      ...(f.aliases.length ? [`-f ${f.aliases.join(', ')}`] : []),
    ];
    const ext = f.extensions.length ? `-o ${f.extensions.join(', ')}` : '';
    const notes = [can.join(', '), ext].filter((n) => n !== '').join('; ');
    return `  ${f.name.padEnd(width)}  ${f.summary}${notes ? `\n  ${' '.repeat(width)}  (${notes})` : ''}`;
  });
}

function formatsText(): string {
  const records = FORMATS.map((f) => formatSpec(f));
  const documents = formatsOfKind('document');
  return `Record formats, chosen with -f, else by the -o file's extension, else the profile's format (where the
command writes it; parquet with -o only), else ${defaultFormat('terminal').name} on a terminal and ${defaultFormat('pipe').name} in a pipe. feed, sources,
query, show, stats, match and cases write every one of them; each command's --help lists its own.

${formatLines(records).join('\n')}

digest (${DIGEST_FORMATS.join(', ')}) and report (${REPORT_FORMATS.join(', ')}) have formats of their own; those
not above are documents:

${formatLines(documents).join('\n')}

The contracts: docs/formats.md.
`;
}

/** The topics, in the order the root help lists them. */
export const HELP_TOPICS: Record<string, { summary: string; text: () => string }> = {
  environment: { summary: 'the environment variables recall-feed reads', text: environmentText },
  'exit-codes': { summary: 'what each exit code means', text: exitCodesText },
  formats: { summary: 'the output formats and what each can do', text: formatsText },
};

/** For the root help: every exit code in one paragraph, from the one table. */
export function exitCodesParagraph(): string {
  const words = exitCodeList()
    .map(({ code, meaning }) => `${code} ${meaning.summary}`)
    .join(', ');
  return wrap(`Exit codes (recall-feed help exit-codes): ${words}.`, 100, '');
}

/** For the root help: the topics, one a line. */
export function helpTopicsList(): string {
  return Object.entries(HELP_TOPICS)
    .map(([name, t]) => `  recall-feed help ${name.padEnd(12)} ${t.summary}`)
    .join('\n');
}

/** `help <word>` naming neither a command nor a topic: a usage error with the nearest names, never the whole help. */
function unknownHelpWord(word: string, commands: readonly string[]): UsageError {
  const near = nearestNames(word, [...commands, ...Object.keys(HELP_TOPICS)]);
  return new UsageError(
    `unknown command or help topic '${word}'`,
    near.length > 0
      ? `did you mean ${near.join(' or ')}?`
      : `the commands: ${commands.join(', ')}; the help topics: ${Object.keys(HELP_TOPICS).join(', ')}`,
  );
}

/**
 * `help config set` as `config set --help`: commander's help command follows one word only, and would print the
 * help of `config`. Any other line is returned as it is.
 */
export function helpAsFlag(argv: readonly string[], commands: readonly string[]): string[] {
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (argv[0] !== 'help' || words.length < 2 || !commands.includes(words[0] as string)) return [...argv];
  return [...argv.slice(1), '--help'];
}

/**
 * Answers `help <topic>` (exit 0); undefined for anything else, which commander answers (`help feed`, `help config
 * set`). `help <word>` where the word is none of `commands` nor a topic throws a UsageError.
 */
export function answerHelpTopic(
  argv: readonly string[],
  ctx: Pick<Context, 'stdout'>,
  commands: readonly string[],
): number | undefined {
  // `help <word>`, with flags that change nothing here beside it (`help exit-codes -q`).
  const words = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (
    argv[0] !== 'help' ||
    words.length !== 1 ||
    (argv.length > 2 && argv.slice(1).some((a) => a === '--help' || a === '-h'))
  )
    return undefined;
  const word = words[0] as string;
  const topic = Object.hasOwn(HELP_TOPICS, word) ? HELP_TOPICS[word] : undefined;
  if (!topic) {
    // commander's own `help help`, and a flag (`help --help`), are commander's to answer.
    if (word === 'help' || word.startsWith('-') || commands.includes(word)) return undefined;
    throw unknownHelpWord(word, commands);
  }
  ctx.stdout.write(topic.text());
  return EXIT.ok;
}
