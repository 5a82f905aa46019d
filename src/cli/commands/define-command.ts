// A command as data: name, summary and formats (read by help, docs, completion, the tests and other front ends),
// with its flags, the plan made of them, what the run uses and the job that runs it.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { OutputKind } from '../../output/format-kinds.js';
import type { Context } from '../../runtime/context.js';
import type { OpsCommand } from '../../runtime/ops/run-ops.js';
import type { Session, SessionOf, Uses } from '../../runtime/session.js';
import type { GlobalFlags, Settings } from '../../runtime/settings.js';
import type { Terminal } from '../../runtime/terminal/terminal.js';
import { declaredFormats, rootOf, writesFormats } from '../format-choices.js';
import type { Program } from '../global-options.js';
import { action, inSession, type OptionsOf, sessionFlags } from './define-action.js';
import { opsAction, withUses } from './ops-action.js';

/** The formats -f and -o may name: all of a kind, or those listed. */
export interface FormatChoice {
  readonly kind: OutputKind;
  readonly names?: readonly string[];
}

/** What the registry knows of each command; `mount` adds it to the program. */
export interface CommandDefinition {
  readonly name: string;
  readonly summary: string;
  readonly formats?: FormatChoice;
  mount(program: Program, ctx: Context): void;
}

/** A command as the program makes it from a name, before its flags. */
export type NewCommand = ReturnType<typeof newCommand>;

function newCommand(program: Program, name: string, summary: string) {
  return program.command(name).description(summary);
}

/** What a plan is made from besides the command's own flags. */
export interface PlanInput {
  /** The global flags (with a parent command's options for a subcommand). */
  readonly globals: GlobalFlags;
  /** The command's arguments (`show <id>`). */
  readonly args: string[];
  readonly ctx: Context;
  /** Now, on the run's clock (--sandbox-now pins it). */
  readonly now: number;
  /** The program, with the commands this run defined (every one for `completion`). */
  readonly root: CommandUnknownOpts;
}

/** A plan made inside the session also sees the settings and the terminal. */
export interface SessionPlanInput extends PlanInput {
  readonly settings: Settings;
  readonly terminal: Terminal;
}

interface Described<C extends CommandUnknownOpts> {
  name: string;
  summary: string;
  formats?: FormatChoice;
  /** The arguments, flags, help text and subcommands, added to what the program made of the name and summary. */
  flags: (cmd: NewCommand) => C;
  /** Its subcommands, each wired here (`cases show`, `config set`): they see this command's flags too. */
  subcommands?: (cmd: C, ctx: Context) => void;
}

/** A command that runs a job in a session; the plan is made in the session, so it may read the settings. */
export interface SessionCommand<C extends CommandUnknownOpts, P, U extends Uses> extends Described<C> {
  plan: (opts: OptionsOf<C>, input: SessionPlanInput) => P | Promise<P>;
  /**
   * What the run uses, for its plan: the session opens it (the output's format chosen, the client started, the
   * archive opened) before `run`, and closes it after, however the run ends. None when omitted.
   */
  uses?: (plan: P, settings: Settings) => U;
  /** The job; it imports what it runs (`await import(...)`), so that the definition stays cheap for help. */
  run: (plan: P, session: SessionOf<U>) => Promise<void>;
  /** feed, sync, match and digest: the run is reported to the monitor and the metrics file. */
  reports?: OpsCommand;
}

/** A command that runs without a session (no settings read): schema, completion, sandbox, doctor. */
export interface LocalCommand<C extends CommandUnknownOpts, P> extends Described<C> {
  plan: (opts: OptionsOf<C>, input: PlanInput) => P | Promise<P>;
  run: (plan: P, ctx: Context) => Promise<void>;
  /** The command pins the clock itself (the sandbox serves --sandbox-now). */
  ownsPin?: boolean;
}

/** A command whose work is all in its subcommands (config). */
export type GroupCommand<C extends CommandUnknownOpts> = Described<C>;

/** -f is the command's own (digest, report) when it writes another kind than records: the settings never see it. */
function ownsFormat(formats: FormatChoice | undefined): boolean {
  return formats !== undefined && formats.kind !== 'record';
}

/** `uses` with the formats `command` writes on its output, so that the profile's format applies only to one of them. */
export function withWrites<U extends Uses>(uses: U, command: CommandUnknownOpts): U {
  const writes = declaredFormats(command)?.formats;
  return uses.output && writes ? { ...uses, output: { writes, ...uses.output } } : uses;
}

function declared<C extends CommandUnknownOpts>(spec: Described<C>, program: Program, ctx: Context): C {
  const cmd = spec.flags(newCommand(program, spec.name, spec.summary));
  if (spec.formats) writesFormats(cmd, spec.formats.kind, spec.formats.names);
  spec.subcommands?.(cmd, ctx);
  return cmd;
}

function describe<C extends CommandUnknownOpts>(
  spec: Described<C>,
  mount: CommandDefinition['mount'],
): CommandDefinition {
  const { name, summary, formats } = spec;
  return { name, summary, ...(formats ? { formats } : {}), mount };
}

/** A command run in a session: flags, then the plan (a usage error before any request), then the job. */
export function defineCommand<C extends CommandUnknownOpts, P, U extends Uses = Record<never, never>>(
  spec: SessionCommand<C, P, U>,
): CommandDefinition {
  const ownFormat = ownsFormat(spec.formats);
  return describe(spec, (program, ctx) => {
    const cmd: CommandUnknownOpts = declared(spec, program, ctx);
    // The flags as `spec.flags` declared them: commander types them on `C`, which this generic code cannot name.
    const plan = (opts: unknown, globals: GlobalFlags, args: string[], session: Session, command: CommandUnknownOpts) =>
      spec.plan(opts as OptionsOf<C>, {
        globals,
        args,
        root: rootOf(command),
        ctx: session.ctx,
        now: session.ctx.now(),
        settings: session.settings,
        terminal: session.terminal,
      });
    const runWith = async (planned: P, session: Session, command: CommandUnknownOpts) =>
      withUses(session, withWrites(spec.uses?.(planned, session.settings) ?? ({} as U), command), (opened) =>
        spec.run(planned, opened),
      );
    if (spec.reports) {
      cmd.action(
        opsAction(
          ctx,
          spec.reports,
          async () => async (opts, globals, session, args, command) =>
            runWith(await plan(opts, globals, args, session, command), session, command),
          { ownFormat },
        ),
      );
      return;
    }
    cmd.action(
      action(ctx, async () => async (opts, globals, c, args, command) => {
        await inSession(sessionFlags(globals, ownFormat), c, {}, async (session) =>
          runWith(await plan(opts, globals, args, session, command), session, command),
        );
      }),
    );
  });
}

/** A command run without a session: flags, the plan, then the run with the context. */
export function defineLocalCommand<C extends CommandUnknownOpts, P>(spec: LocalCommand<C, P>): CommandDefinition {
  return describe(spec, (program, ctx) => {
    const cmd: CommandUnknownOpts = declared(spec, program, ctx);
    cmd.action(
      action(
        ctx,
        async () => async (opts, globals, c, args, command) => {
          const plan = await spec.plan(opts as OptionsOf<C>, {
            globals,
            args,
            ctx: c,
            now: c.now(),
            root: rootOf(command),
          });
          await spec.run(plan, c);
        },
        { ownsPin: spec.ownsPin ?? false },
      ),
    );
  });
}

/** A command of subcommands only (config), wired by `subcommands`. */
export function defineGroup<C extends CommandUnknownOpts>(spec: GroupCommand<C>): CommandDefinition {
  return describe(spec, (program, ctx) => {
    declared(spec, program, ctx);
  });
}
