// The text format: a document (the digest) as plain text for people.
import { defineFormat } from '../output-format.js';

export const textFormat = defineFormat({
  name: 'text',
  // `table` too, as users typed it for the digest before: it means text only where no table is written.
  aliases: ['txt', 'table'],
  summary: 'plain text for people, fitted to the terminal',
  extensions: ['.txt'],
  kind: 'document',
  can: ['forPeople'],
  documentParts: ['text', 'people'],
});
