// `recall-feed feed`: registers the command; its plan is built in feed-plan.ts, its run is jobs/feed.
import type { Program } from '../global-options.js';
import { writesFormats } from '../format-choices.js';
import type { Context } from '../../runtime/context.js';
import { declareFeed } from './feed-options.js';
import { opsAction } from './ops-action.js';

export function registerFeed(program: Program, ctx: Context): void {
  writesFormats(declareFeed(program), 'record').action(
    opsAction(ctx, 'feed', async () => {
      const { planFeed } = await import('./feed-plan.js');
      const { runFeed } = await import('../../jobs/feed/run-feed.js');
      // Every flag is checked against the settings before anything starts: bad input sends no request.
      return (opts, _globals, session) => runFeed(planFeed(opts, session.settings, session.terminal), session);
    }),
  );
}
