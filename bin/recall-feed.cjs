#!/usr/bin/env node
// Thin launcher: the only code that touches process. Runs the CLI and sets the exit code.
// CommonJS on purpose: Node starts it without its ES module loader, which alone costs about a third of a
// bare `node -e 0`. The ES modules of dist/cli load only when a command runs.
'use strict';
const path = require('node:path');

const args = process.argv.slice(2);

/** Words that ask for help: such a run first tries the CommonJS front (dist/cli/front.cjs). */
const HELP_WORDS = new Set(['--help', '-h', 'help']);

/** The signals that stop a run in order: process-context.ts handles the same ones once the CLI has loaded. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * stdout failing under the version or help (`recall-feed --help > /full/disk`): said in one line, exit 10, as the CLI
 * says it for a command; a closed pipe is a reader saying "enough".
 */
function stdoutFailed(err) {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  const reason = err.code === 'ENOSPC' ? 'the disk is full' : err.code || String(err);
  process.stderr.write(`error: cannot write the output: ${reason}\n`);
  process.exit(10);
}

async function run() {
  // `recall-feed --version` alone is answered from package.json (the version's one owner, which the CLI
  // bundle inlines too) without loading the CLI: loading commander alone costs more than the whole answer.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    // Written with fs.writeSync: creating process.stdout loads Node's streams, 1.5 ms or more. A closed
    // pipe has nobody left to tell; anything else (a non-blocking descriptor, say) goes through the stream.
    const line = `${require('../package.json').version}\n`;
    try {
      require('node:fs').writeSync(1, line);
    } catch (err) {
      if (err.code !== 'EAGAIN') return stdoutFailed(err);
      process.stdout.on('error', stdoutFailed);
      process.stdout.write(line);
    }
    return;
  }
  // Help (and `recall-feed` alone, which prints it): the same commander program, bundled as CommonJS, so
  // that Node's ES module loader never starts. It answers only what commander answers without running a
  // command; for anything else it has written nothing, and the full CLI below parses the arguments again.
  if (args.length === 0 || args.some((arg) => HELP_WORDS.has(arg))) {
    const front = require(path.join(__dirname, '../dist/cli/front.cjs'));
    process.stdout.on('error', stdoutFailed);
    const code = await front.answerWithoutRunning(args, front.helpContext());
    if (code !== undefined) {
      process.exitCode = code;
      return;
    }
    process.stdout.off('error', stdoutFailed);
  }
  // Loading the CLI takes a few hundred ms: a stop signal meanwhile is kept for the run, which then starts
  // interrupted (exit 130, its last word said), rather than killing the process by the signal's default.
  let received;
  const keep = (name) => {
    received ??= name;
  };
  for (const name of STOP_SIGNALS) process.on(name, keep);
  const [{ main }, { processContext }] = await Promise.all([
    import('../dist/cli/main.js'),
    import('../dist/cli/process-context.js'),
  ]);
  // The run's handlers first, then these off: a signal in between never finds the process without one.
  const { ctx, dispose } = processContext(received);
  for (const name of STOP_SIGNALS) process.off(name, keep);
  process.exitCode = await main(args, ctx);
  dispose();
}

run();
