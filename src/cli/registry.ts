// The command registry: every command, in the order help lists them, each definition loaded only when needed.
import type { CommandDefinition } from './commands/define-command.js';

type Load = () => Promise<{ default: CommandDefinition }>;

/**
 * The one list of commands. The shell defines only the command a run invokes (so `feed --help` parses no other
 * definition, nor what it imports); help, docs/commands.md, completion and the tests read every definition.
 * A new command is a file in commands/ whose default export is `defineCommand(...)`, and a line here.
 */
const LOADERS = {
  feed: () => import('./commands/feed.js'),
  sources: () => import('./commands/sources.js'),
  health: () => import('./commands/health.js'),
  config: () => import('./commands/config.js'),
  sync: () => import('./commands/sync.js'),
  query: () => import('./commands/query.js'),
  show: () => import('./commands/show.js'),
  stats: () => import('./commands/stats.js'),
  digest: () => import('./commands/digest.js'),
  match: () => import('./commands/match.js'),
  cases: () => import('./commands/cases.js'),
  report: () => import('./commands/report.js'),
  doctor: () => import('./commands/doctor.js'),
  schema: () => import('./commands/schema.js'),
  mcp: () => import('./commands/mcp.js'),
  sandbox: () => import('./commands/sandbox.js'),
  completion: () => import('./commands/completion.js'),
} satisfies Record<string, Load>;

export type CommandName = keyof typeof LOADERS;

/** Every command's name, in the order help lists them. */
export const COMMAND_NAMES = Object.keys(LOADERS) as readonly CommandName[];

export function isCommandName(word: string): word is CommandName {
  return Object.hasOwn(LOADERS, word);
}

/** One command's definition. */
export async function loadCommand(name: CommandName): Promise<CommandDefinition> {
  return (await LOADERS[name]()).default;
}

/** Every command's definition, in the order help lists them. */
export async function loadCommands(): Promise<CommandDefinition[]> {
  return Promise.all(COMMAND_NAMES.map(loadCommand));
}
