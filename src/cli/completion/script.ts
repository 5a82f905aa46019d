// Writes the completion script for one shell from the live commander program.
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Shell } from './shells.js';
import { describeTree, type KnownArgs } from './tree.js';
import { zshScript } from './zsh.js';

/** `_recall_feed` for `recall-feed`: a name every shell accepts for a function. */
export function functionName(program: string): string {
  return `_${program.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** `known`: the values of arguments only a job knows (tree.ts KnownArgs), which the completion command loads. */
export function completionScript(shell: Shell, program: Command, known: KnownArgs = {}): string {
  const root = describeTree(program, known);
  const fn = functionName(root.name);
  switch (shell) {
    case 'bash':
      return bashScript(root, fn);
    case 'zsh':
      return zshScript(root, fn);
    case 'fish':
      return fishScript(root);
  }
}
