// The markdown format: a document (the digest, the report) as Markdown.
import { defineFormat } from '../output-format.js';

export const markdownFormat = defineFormat({
  name: 'markdown',
  aliases: ['md'],
  summary: 'a Markdown document',
  extensions: ['.md', '.markdown'],
  kind: 'document',
  can: [],
  documentParts: ['text'],
});
