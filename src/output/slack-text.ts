// Text for Slack and Mattermost incoming webhooks: untrusted text made inert (no link, image or mention), and the size they take.

/**
 * Slack's mrkdwn treats & < > as markup (`<url|text>` is a link): escaped. Mattermost, which takes the same
 * webhook, renders Markdown: `[text](url)` is a live link and `![alt](url)` an image fetched when the channel is
 * viewed. Neither service honours a backslash the other would hide, so a zero-width space after the `]` of
 * `](` (and after a `!` before `[`) breaks the syntax in both while the text reads the same. Mattermost also
 * notifies on `@channel`, `@all`, `@here` and `@user` in a webhook's text: a zero-width space after an `@` that
 * starts a word breaks those too (an e-mail address, whose `@` follows a letter, stays whole).
 */
export function escapeSlack(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\]\s*\(/g, (m) => `]\u200b${m.slice(1)}`)
    .replace(/\]\s*\[/g, (m) => `]\u200b${m.slice(1)}`)
    .replace(/!\[/g, '!\u200b[')
    .replace(/(?<![\w.+-])@(?=\w)/g, '@\u200b');
}

/** Slack cuts a message's text at 40,000 characters and advises 4,000; one recall stays far below either. */
export const SLACK_MAX_CHARS = 4000;
