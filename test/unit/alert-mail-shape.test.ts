// The alert e-mail's shape: runaway titles and facts shortened as the Teams card shortens them, so one notice cannot
// swell the message; new versions (sync --on-update) counted and marked as updated; a Slack link keeps its URL.
import { describe, expect, it } from 'vitest';
import { alertMail } from '../../src/actions/email-message.js';
import { slackMessage } from '../../src/actions/webhook-action.js';

const AT = Date.parse('2026-11-29T09:00:00Z');

describe('alert e-mail: long fields', () => {
  it('a title of megabytes shows its first 299 characters and an ellipsis, each fact its first 199', () => {
    const title = `Runaway ${'t'.repeat(6_000_000)}`;
    const brand = `Brand ${'b'.repeat(1_000_000)}`;
    const source = 's'.repeat(300);
    const mail = alertMail(
      [
        { id: 1, alert_title: title, product_brand: brand, data_source: source, risk_severity: 'high' },
        { id: 2, alert_title: 'Ordinary kettle', risk_severity: 'low' },
      ],
      'recalls',
      AT,
    );
    const shownTitle = `${title.slice(0, 299)}…`;
    const facts = `severity: high · brand: ${brand.slice(0, 199)}… · source: ${'s'.repeat(199)}… · id 1`;
    expect(mail.text).toBe(
      `Recalls 29 Nov: 2 new (1 high)\n\nNew recalls found by recall-feed, worst severity first.\n\n* ${shownTitle}\n  ${facts}\n\n* Ordinary kettle\n  severity: low · id 2\n`,
    );
    expect(mail.html).toContain(`<strong>${shownTitle}</strong><br><span style="color:#555">${facts}</span>`);
    expect(mail.html.length).toBeLessThan(3_000);
  });

  it('cuts by characters, never through an emoji', () => {
    const title = '🔥'.repeat(400);
    const mail = alertMail([{ id: 3, alert_title: title }], 'recalls', AT);
    expect(mail.text).toContain(`* ${'🔥'.repeat(299)}…\n`);
  });
});

describe('alert e-mail: new and updated recalls', () => {
  const records = [
    { id: 10, alert_title: 'Heater', risk_severity: 'high' },
    { id: 11, alert_title: 'Lamp', risk_severity: 'low' },
    { id: 12, alert_title: 'Stroller', risk_severity: 'high' },
  ];

  it('counts the updated apart from the new, says so, and marks each updated recall', () => {
    const mail = alertMail(records, 'recalls', AT, ['update', 'new', 'update']);
    expect(mail.subject).toBe('Recalls 29 Nov: 1 new, 2 updated (2 high)');
    const lines = mail.text.split('\n');
    expect(lines[2]).toBe(
      'New and updated recalls found by recall-feed, worst severity first. An updated recall is a new version of one already stored.',
    );
    const items = lines.filter((l) => l.startsWith('* '));
    expect(items.slice(0, 2).sort()).toEqual(['* Updated: Heater', '* Updated: Stroller']);
    expect(items[2]).toBe('* Lamp');
    expect(mail.html.match(/<li[^>]*><em>Updated:<\/em> <strong>(\w+)</g)).toHaveLength(2);
  });

  it('all updated: 0 new, and the introduction speaks of updated recalls only', () => {
    const mail = alertMail(records.slice(0, 2), 'recalls', AT, ['update', 'update']);
    expect(mail.subject).toBe('Recalls 29 Nov: 0 new, 2 updated (1 high)');
    expect(mail.text.split('\n')[2]).toMatch(/^Updated recalls found by recall-feed, worst severity first\./);
  });

  it('without updates it reads as before', () => {
    const mail = alertMail(records, 'recalls', AT, ['new', 'new', 'new']);
    expect(mail.subject).toBe('Recalls 29 Nov: 3 new (2 high)');
    expect(mail.text).not.toContain('Updated');
  });
});

describe('slack link', () => {
  it('a | (or < > or a space) in the link is percent-encoded, so Slack opens the same URL', () => {
    const link = 'https://teams.example/?q=<x>|y z';
    const { text } = slackMessage({ id: 1, alert_title: 'Kettle', source_url: link });
    const shown = text.split('\n').at(-1)!;
    expect(shown).toBe('<https://teams.example/?q=%3Cx%3E%7Cy%20z>');
    const inner = shown.slice(1, -1);
    expect(inner).not.toMatch(/[<>|\s]/);
    expect(new URL(inner).searchParams.get('q')).toBe('<x>|y z');
  });

  it('a | in the path or the fragment too', () => {
    const { text } = slackMessage({ id: 1, alert_title: 'Kettle', source_url: 'https://a.example/p|q#f|g' });
    expect(text.endsWith('\n<https://a.example/p%7Cq#f%7Cg>')).toBe(true);
  });
});
