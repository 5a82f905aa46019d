// What the archive's offline commands (query, stats, show from the archive) need: settings and terminal, no client.
import type { Context } from '../context.js';
import { loadSettings } from '../session.js';
import type { GlobalFlags, Settings } from '../settings.js';
import { StatusReporter } from '../terminal/status.js';
import { detectTerminal, type Terminal } from '../terminal/terminal.js';
import { archivePath } from './archive-file.js';

export interface LocalSession {
  settings: Settings;
  terminal: Terminal;
  status: StatusReporter;
  /** The archive file, resolved. */
  file: string;
}

/** Settings from flags, environment and profile; never a client, never a request, no key needed. */
export async function openLocal(globals: GlobalFlags, ctx: Context, dbFlag: string | undefined): Promise<LocalSession> {
  const settings = await loadSettings(globals, ctx);
  const terminal = detectTerminal(ctx, globals.color);
  const status = new StatusReporter(ctx.stderr, {
    spinner: false,
    quiet: settings.quiet,
    verbose: settings.verbose,
    now: ctx.now,
  });
  return { settings, terminal, status, file: archivePath(dbFlag, ctx.env, settings.profileDb) };
}
