// `recall-feed completion bash|zsh|fish`: prints a completion script read from the live command tree.
import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Program } from '../global-options.js';
import type { Context } from '../../runtime/context.js';
import { SHELLS } from '../completion/shells.js';

export function registerCompletion(program: Program, ctx: Context): void {
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
    .action(async (shell, _opts, cmd) => {
      const { completionScript } = await import('../completion/script.js');
      ctx.stdout.write(completionScript(shell, rootOf(cmd)));
    });
}

/** The program: the script covers every command, not just this one. */
function rootOf(cmd: CommandUnknownOpts): CommandUnknownOpts {
  let root: CommandUnknownOpts = cmd;
  while (root.parent) root = root.parent;
  return root;
}
