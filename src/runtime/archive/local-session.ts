// What the archive's offline commands (query, stats, show from the archive) need: settings and terminal, no client.
import type { DbTarget } from '../../archive/db-target.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { Context } from '../context.js';
import { loadSettings } from '../session.js';
import type { GlobalFlags, Settings } from '../settings.js';
import { StatusReporter } from '../terminal/status.js';
import { detectTerminal, type Terminal } from '../terminal/terminal.js';
import { archiveTarget, openArchiveAt, type DbChoice } from './archive-file.js';
import { fromSandbox } from './sandbox-origin.js';

export interface LocalSession {
  settings: Settings;
  terminal: Terminal;
  status: StatusReporter;
  /** The archive, resolved: `archive.name` is what messages show (never a password). */
  archive: DbTarget;
}

/** Settings from flags, environment and profile; never a client, never a request, no key needed. */
export async function openLocal(globals: GlobalFlags, ctx: Context, choice: DbChoice): Promise<LocalSession> {
  const settings = await loadSettings(globals, ctx);
  const terminal = detectTerminal(ctx, globals.color);
  const status = new StatusReporter(ctx.stderr, {
    spinner: false,
    quiet: settings.quiet,
    verbose: settings.verbose,
    now: ctx.now,
  });
  const archive = archiveTarget(choice, ctx.env, settings.profileDb, fromSandbox(settings));
  return { settings, terminal, status, archive };
}

/** Opens an archive for reading only: a read-only file, mount or database role is enough. */
export async function readArchive(
  run: Pick<LocalSession, 'settings' | 'status'>,
  target: DbTarget,
): Promise<ArchiveStore> {
  if (run.settings.verbose) run.status.note(`archive: ${target.name}`);
  return openArchiveAt(target, { create: false, readOnly: true });
}
