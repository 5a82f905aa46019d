import type { Program } from '../global-options.js';
import { writesFormats } from '../format-choices.js';
import { action } from './define-action.js';
import { UnhealthyError } from '../../runtime/cli-errors.js';
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';

export function registerHealth(program: Program, ctx: Context): void {
  const health = program.command('health');
  writesFormats(health, 'record', ['table', 'json', 'jsonl']);
  health
    .description('check that the API is up (no key needed); exit 0 healthy, 6 unhealthy or unreachable')
    .addHelpText('after', '\nExamples:\n  recall-feed health\n  recall-feed health -f json')
    .action(action(ctx, async () => runHealth));
}

export async function runHealth(_opts: unknown, globals: GlobalFlags, ctx: Context): Promise<void> {
  const { openSession } = await import('../../runtime/session.js');
  const session = await openSession(globals, ctx, { needsKey: false });
  try {
    const result = await session.client.health();
    const status = result.body?.status ?? 'unknown';
    // A status line, not records: JSON only when asked for with -f, whatever the pipe or profile.
    const { format } = session.settings;
    if (format === 'json' || format === 'jsonl') {
      const line = {
        healthy: result.healthy,
        http_status: result.httpStatus,
        latency_ms: result.latencyMs,
        ...result.body,
      };
      ctx.stdout.write(`${JSON.stringify(line)}\n`);
    } else {
      const version = result.body?.version ? `, version ${result.body.version}` : '';
      ctx.stdout.write(
        `${status} (HTTP ${result.httpStatus}, ${result.latencyMs} ms${version}) ${session.settings.baseUrl}\n`,
      );
    }
    if (!result.healthy) throw new UnhealthyError(`the API reports '${status}' (HTTP ${result.httpStatus})`);
  } finally {
    await session.close();
  }
}
