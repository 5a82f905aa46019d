// `recall-feed completion bash|zsh|fish`: prints a completion script read from the live command tree.
import { Argument } from '@commander-js/extra-typings';
import { SHELLS } from '../completion/shells.js';
import { defineLocalCommand } from './define-command.js';

export default defineLocalCommand({
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish)',
  flags: (cmd) =>
    cmd.addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS)).addHelpText(
      'after',
      `
Examples:
  source <(recall-feed completion bash)                       this bash session
  recall-feed completion bash > ~/.local/share/bash-completion/completions/recall-feed
  recall-feed completion zsh > "\${fpath[1]}/_recall_feed"     then restart zsh
  recall-feed completion fish > ~/.config/fish/completions/recall-feed.fish`,
    ),
  // The script covers the whole program (a completion run defines every command), not this command alone.
  plan: (_opts, { args, root }) => ({ shell: args[0] as (typeof SHELLS)[number], root }),
  run: async ({ shell, root }, ctx) => {
    const [{ completionScript }, { CONTRACTS }] = await Promise.all([
      import('../completion/script.js'),
      import('../../jobs/contracts/contracts.js'),
    ]);
    // `schema <name>`: the contracts, which only the job knows.
    ctx.stdout.write(completionScript(shell, root, { 'schema name': Object.keys(CONTRACTS) }));
  },
});
