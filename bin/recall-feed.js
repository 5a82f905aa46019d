#!/usr/bin/env node
// Thin launcher: the only code that touches process. Runs main() and sets the exit code.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);

// `recall-feed --version` alone is answered from package.json (the version's one owner, which the CLI
// bundle inlines too) without loading the CLI: loading commander alone costs more than the whole answer.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const [{ main }, { processContext }] = await Promise.all([
    import('../dist/cli/main.js'),
    import('../dist/cli/process-context.js'),
  ]);
  const { ctx, dispose } = processContext();
  process.exitCode = await main(args, ctx);
  dispose();
}
