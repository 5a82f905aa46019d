// Builds the commander program and runs it; main() maps every error to its message and exit code.
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../runtime/context.js';
import type { ErrorReport } from '../runtime/error-reports.js';
import { EXIT } from '../runtime/exit-codes.js';
import { plainLine } from '../output/control-escapes.js';
import { addGlobalOptions, type Program } from './global-options.js';
import { checkFormatChoice } from './format-choices.js';
import { checkParentOptions } from './parent-options.js';
import { answerHelpTopic, exitCodesParagraph, helpAsFlag, helpTopicsList } from './help-topics.js';
import { isJsonLog, JsonLogStream, logFormatOf } from '../runtime/terminal/json-log.js';
import { COMMAND_NAMES, isCommandName, loadCommand, loadCommands } from './registry.js';
import packageJson from '../../package.json' with { type: 'json' };

/** package.json owns the version; the bundle inlines it at build time (no file is read when the CLI runs). */
export const VERSION: string = packageJson.version;

/**
 * The command `argv` invokes, found as commander finds it: the first word that is neither an option nor
 * a root option's value. Undefined where that is not plain (no command, `--`, or bundled short flags such
 * as `-qo`): then every command is defined and commander decides, as it always did.
 */
export function invokedCommand(argv: string[], root: CommandUnknownOpts): string | undefined {
  const at = commandIndex(argv, root);
  return at === undefined ? undefined : argv[at];
}

/** Where invokedCommand's word is in `argv`. */
function commandIndex(argv: readonly string[], root: CommandUnknownOpts): number | undefined {
  const takesValue = new Set(root.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) return i;
    if (arg === '--' || /^-[^-]{2,}/.test(arg)) return undefined;
    if (takesValue.has(arg)) i++;
  }
  return undefined;
}

/**
 * `help config set` as `config set --help`, after the global flags given before it (`--profile prod help config
 * set`): the line as run, and the words from the command on, which `help <topic>` is answered from.
 */
function helpLine(line: string[]): { argv: string[]; words: string[] } {
  const at = commandIndex(line, addGlobalOptions(new Command())) ?? 0;
  const words = helpAsFlag(line.slice(at), COMMAND_NAMES);
  return { argv: [...line.slice(0, at), ...words], words };
}

/** The command that runs, alone; every command for the root help, `help`, an unknown word and `completion`. */
async function registerCommands(program: Program, argv: string[], ctx: Context): Promise<void> {
  const word = invokedCommand(argv, program);
  const one = word !== undefined && word !== 'completion' && isCommandName(word) ? word : undefined;
  const definitions = one ? [await loadCommand(one)] : await loadCommands();
  for (const definition of definitions) definition.mount(program, ctx);
}

/**
 * Commander's message with the value of an option it does not know left out: `--api-kye=<key>` or a `--monitor=<url>`
 * given to a command without it would print a secret in full (on stderr, in a JSON log).
 */
function withoutOptionValues(message: string): string {
  // To the message's last quote (before commander's suggestion): the value may hold quotes and line breaks of its own.
  return message.replace(/(unknown option '-{1,2}[^=' \n]+)=[\s\S]*'(?=(?:\n\(Did you mean [^\n]*\))?\s*$)/, "$1=…'");
}

/**
 * Commander's usage error (`error: unknown option '--hous'`, then `(Did you mean --hours?)`) written as every other
 * error is: `error:` and `hint:` lines, or with --log-format json one record with exit_code and hints. Each line made
 * plain as error-reports.ts makes the CLI's own: commander quotes the value it refused (`.choices()` of --log-format,
 * `completion <shell>`), which may hold ESC or bidi controls.
 */
function commanderError(text: string, ctx: Context): void {
  const said = withoutOptionValues(text)
    .trimEnd()
    .replace(/^error: /, '');
  // Its one suggestion comes last on a line of its own; a line break before it is the refused value's, kept in the message.
  const suggestion = /\n\(Did you mean (.*)\)$/.exec(said);
  const message = plainLine(suggestion ? said.slice(0, suggestion.index) : said);
  const hints = suggestion ? [plainLine(`did you mean ${suggestion[1]}`)] : [];
  printError({ message, hints, code: EXIT.usage, silent: false }, ctx);
}

function buildProgram(ctx: Context): Program {
  const program = addGlobalOptions(
    new Command('recall-feed')
      .description('Product recalls and safety alerts published by regulators in the last 24 hours.')
      .version(VERSION, '-V, --version'),
  )
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(withoutOptionValues(s)),
      outputError: (s) => commanderError(s, ctx),
      // The context's streams, not process.stdout (whose creation costs a help run a tenth of a Node
      // start): their width on a terminal, as commander would take it; no colours (the help has none).
      // (undefined is commander's own answer off a terminal, which its types do not admit.)
      getOutHelpWidth: () => (ctx.stdout.isTTY ? ctx.stdout.columns : undefined) as number,
      getErrHelpWidth: () => (ctx.stderr.isTTY ? ctx.stderr.columns : undefined) as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText(
      'after',
      `
Examples:
  recall-feed feed --sandbox                     try it with generated data, no key needed
  recall-feed feed --hours 6 --sources us_cpsc   a table of the last 6 hours from one source
  recall-feed feed -f csv -o recalls.csv         export everything in the window as CSV
  recall-feed feed | jq -r .product_name         JSON lines into a pipeline
  recall-feed feed --watch --interval 300        print each new recall once, as it appears
  echo "$KEY" | recall-feed config set api-key   store a key (read from stdin)
  recall-feed sync                               keep a local archive (cron: 0 * * * * recall-feed sync)
  recall-feed query --search "creme brulee" --since 30d   ask the archive, offline
  recall-feed match --catalog products.csv       which of your products were recalled
  recall-feed digest --email team@example.com    the day's summary, and whether monitoring held
  recall-feed cases                              work through the matches (match --archive --open-cases)

Help topics:
${helpTopicsList()}

${exitCodesParagraph()}`,
    );
  return program;
}

function printError(report: ErrorReport, ctx: Context): number {
  if (report.silent) return report.code;
  if (isJsonLog(ctx.stderr)) {
    const { code, hints, command } = report;
    ctx.stderr.log('error', report.message, { exit_code: code, hints, ...(command ? { command } : {}) });
    return report.code;
  }
  ctx.stderr.write(`error: ${report.message}\n`);
  for (const hint of report.hints) ctx.stderr.write(`hint: ${hint}\n`);
  if (report.command) ctx.stderr.write(`  ${report.command}\n`);
  return report.code;
}

/** The context with the arguments added; copied with its getters kept (the real stdin opens only when read). */
function withArgv(baseCtx: Context, argv: string[]): Context {
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(baseCtx),
      argv: { value: argv, enumerable: true },
      secrets: { value: new Set<string>(baseCtx.secrets), enumerable: true },
    },
  ) as Context;
}

/** The exit code of commander's own ending: help and the version are success, anything else is a usage error. */
function commanderExitCode(err: CommanderError): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
  // `recall-feed` alone prints the help to stderr: a usage error, like any other missing word.
  // commander has already printed its one-line message to stderr.
  return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
}

/** Thrown by the front's preAction hook: a command would run, which is main()'s work. */
const HAND_OVER = Symbol('hand over to main()');

/**
 * What commander answers without running a command (help, the version, its usage errors), from the same
 * program main() builds. bin/recall-feed.cjs calls it from a CommonJS bundle for a help request, so that
 * no ES module is loaded. Undefined when a command would run or anything else is thrown: nothing has
 * been written then, and the caller runs main(), which parses the same arguments again.
 */
export async function answerWithoutRunning(line: string[], baseCtx: Context): Promise<number | undefined> {
  const { argv, words } = helpLine(line);
  const ctx = withArgv(baseCtx, argv);
  const program = buildProgram(ctx);
  try {
    // `help <word>` naming neither a command nor a topic throws: main() runs and says so.
    const topic = answerHelpTopic(words, ctx, COMMAND_NAMES);
    if (topic !== undefined) return topic;
    await registerCommands(program, argv, ctx);
    program.hook('preAction', () => {
      throw HAND_OVER;
    });
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    return err instanceof CommanderError ? commanderExitCode(err) : undefined;
  }
}

/** The whole command tree, every command defined, as `recall-feed --help` sees it: for docs/commands.md. */
export async function commandTree(ctx: Context): Promise<Program> {
  const program = buildProgram(ctx);
  await registerCommands(program, [], ctx);
  return program;
}

/** With --log-format json (or RECALL_FEED_LOG_FORMAT=json), stderr becomes JSON lines: the one switch. */
function withLogFormat(ctx: Context, argv: string[]): Context {
  if (logFormatOf(argv, ctx.env) !== 'json') return ctx;
  const stderr = new JsonLogStream(ctx.stderr, ctx.now).asStream();
  return Object.defineProperties(ctx, { stderr: { value: stderr, enumerable: true } });
}

/** Runs the CLI. Never calls process.exit; returns the exit code. */
export async function main(argv: string[], baseCtx: Context): Promise<number> {
  const ctx = withLogFormat(withArgv(baseCtx, argv), argv);
  try {
    return await mainIn(argv, ctx);
  } finally {
    if (isJsonLog(ctx.stderr)) ctx.stderr.flush();
  }
}

/**
 * Throws the error a write to stdout met, if one did: a command that writes to the context's stdout itself
 * (`config list`, `schema`, `completion`) on a full disk fails as one writing through the output service does.
 * Node's stream keeps the error (process-context.ts hears its 'error' event, so that it ends nothing by itself).
 */
function throwStdoutFailure(ctx: Context): void {
  const failed = ctx.stdout.errored;
  if (failed) throw failed;
}

async function mainIn(line: string[], ctx: Context): Promise<number> {
  const { argv, words } = helpLine(line);
  const program = buildProgram(ctx);
  try {
    const topic = answerHelpTopic(words, ctx, COMMAND_NAMES);
    if (topic !== undefined) {
      throwStdoutFailure(ctx);
      return topic;
    }
    await registerCommands(program, argv, ctx);
    // -f and -o against the formats the command writes, and a parent's options a subcommand does not take: usage
    // errors before anything runs.
    program.hook('preAction', (_root, command) => {
      checkFormatChoice(command);
      checkParentOptions(command);
    });
    await program.parseAsync(argv, { from: 'user' });
    throwStdoutFailure(ctx);
    return EXIT.ok;
  } catch (caught) {
    // Help or the version that could not be written fails as any output does (a real run's front answers them first).
    const err = caught instanceof CommanderError ? ctx.stdout.errored : caught;
    if (caught instanceof CommanderError && !err) return commanderExitCode(caught);
    // A reader that stopped reading (`recall-feed query | head`) is done, not failed; the write that
    // noticed may reject before stdout's own 'error' handler (process-context.ts) ends the process.
    // Loaded only now: the mapping imports every error class, which a run that succeeds never needs.
    const { describeError } = await import('../runtime/error-reports.js');
    const { isClosedPipe } = await import('../runtime/failure-policy.js');
    if (isClosedPipe(err)) return EXIT.ok;
    const { runSecrets } = await import('../runtime/config/run-secrets.js');
    return printError(describeError(err, runSecrets(ctx)), ctx);
  }
}
