import path from 'node:path';
import { bundleCliScript } from './child-module.js';
import { execa } from 'execa';
import { tempDir } from './temp-dir.js';

const _ROOT = path.resolve(import.meta.dirname, '..', '..');

/** What bin/recall-feed.cjs does once it has the CLI: main() with the process's context, its code the exit code. */
const ENTRY = `import { main } from './src/cli/main.ts';
import { processContext } from './src/runtime/process-context.ts';
const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();`;

export interface SourceCliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type SourceCli = (
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined> },
) => Promise<SourceCliResult>;

/**
 * Bundles the CLI (no dist/ needed: integration tests need no build) into one file in a temp folder kept to the end
 * of the test file, beside a link to the checkout's node_modules (better-sqlite3 loads from there). The run gets only
 * the env given (plus PATH): none of the tester's PG* variables or ~/.pgpass.
 */
export async function sourceCli(): Promise<SourceCli> {
  const dir = tempDir('rf-source-cli-', { scope: 'file' });
  const outfile = path.join(dir, 'cli.mjs');
  await bundleCliScript(outfile, ENTRY, 'source-cli-entry.ts');
  return async (args, { cwd, env }) => {
    const r = await execa(process.execPath, [outfile, ...args], {
      cwd,
      env: { PATH: process.env.PATH, TERM: 'dumb', ...env },
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      stdin: 'ignore',
    });
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
}
