// `recall-feed feed`: the command; its flags are in feed-options.ts, its plan in feed-plan.ts, its run is jobs/feed.
import { defineCommand } from './define-command.js';
import { declareFeed } from './feed-options.js';

export default defineCommand({
  name: 'feed',
  summary: 'recalls published in the last 1-24 hours, every page, within the rate limits',
  formats: { kind: 'record' },
  flags: declareFeed,
  // Every flag is checked against the settings before anything starts: bad input sends no request.
  plan: async (opts, { settings, terminal, ctx }) =>
    (await import('./feed-plan.js')).planFeed(opts, settings, terminal, ctx.env),
  run: async (plan, session) => (await import('../../jobs/feed/run-feed.js')).runFeed(plan, session),
  reports: 'feed',
});
