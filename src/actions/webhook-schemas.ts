// The contracts of --webhook's slack and teams bodies as zod schemas (the json format posts the record or digest itself).
import { z } from 'zod';

export const SlackMessageSchema = z
  .object({ text: z.string().min(1).max(40_000) })
  .describe(
    '--webhook-format slack: a Slack-style message (Slack, Mattermost, Rocket.Chat), for a recall or a digest.',
  );

const element = z.looseObject({ type: z.string() });

export const TeamsMessageSchema = z
  .object({
    type: z.literal('message'),
    attachments: z
      .array(
        z.object({
          contentType: z.literal('application/vnd.microsoft.card.adaptive'),
          contentUrl: z.null(),
          content: z.looseObject({
            $schema: z.literal('http://adaptivecards.io/schemas/adaptive-card.json'),
            type: z.literal('AdaptiveCard'),
            version: z.string(),
            body: z.array(element),
            actions: z.array(element).optional(),
          }),
        }),
      )
      .length(1),
  })
  .describe('--webhook-format teams: a Teams message with one Adaptive Card, for a recall or a digest.');
