// Recall text never mentions anyone in a chat: @channel, @here, @all or @someone from a notice reach nobody (Mattermost acts on them).
import { describe, expect, it } from 'vitest';
import { slackMessage } from '../../src/actions/webhook-action.js';
import { slackDigest } from '../../src/output/digest/digest-chat.js';
import { buildDigest } from '../../src/jobs/digest/digest-model.js';
import { GOOD_HEALTH } from '../helpers/digest-health.js';

const hostile = { id: 7, alert_title: 'Urgent @channel @here @all @everyone cc @jsmith', data_source: 'us_cpsc' };

const digest = buildDigest({
  fromMs: Date.parse('2026-11-25T08:00:00Z'),
  toMs: Date.parse('2026-11-26T08:00:00Z'),
  stored: { new: [hostile], updated: [] },
  matches: null,
  products: null,
  health: GOOD_HEALTH,
  sourcesChecked: true,
  settled: true,
});

describe('mentions in recall text', () => {
  it('are broken by a zero-width space after the @, in the digest and in a single alert; the words stay', () => {
    for (const text of [slackDigest(digest, ['team@example.com']).text, slackMessage(hostile).text]) {
      expect(text).not.toMatch(/@(channel|here|all|everyone|jsmith)/);
      expect(text.replace(/\u200b/g, '')).toContain('Urgent @channel @here @all @everyone cc @jsmith');
    }
  });

  it('leaves e-mail addresses whole (the digest names where it was e-mailed)', () => {
    expect(slackDigest(digest, ['team@example.com']).text).toContain('e-mailed to team@example.com.');
  });
});
