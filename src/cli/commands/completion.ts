// `recall-feed completion bash|zsh|fish`: prints a completion script read from the live command tree.
import { Argument, type Command } from 'commander';
import type { Context } from '../../runtime/context.js';
import { SHELLS, type Shell } from '../completion/shells.js';

export function registerCompletion(program: Command, ctx: Context): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  source <(recall-feed completion bash)                       this bash session
  recall-feed completion bash > ~/.local/share/bash-completion/completions/recall-feed
  recall-feed completion zsh > "\${fpath[1]}/_recall_feed"     then restart zsh
  recall-feed completion fish > ~/.config/fish/completions/recall-feed.fish`,
    )
    .action(async (shell: Shell, _opts: unknown, cmd: Command) => {
      const { completionScript } = await import('../completion/script.js');
      ctx.stdout.write(completionScript(shell, rootOf(cmd)));
    });
}

/** The program: the script covers every command, not just this one. */
function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}
