// The html format: a document (the digest, the report) as one HTML page.
import { defineFormat } from '../output-format.js';

export const htmlFormat = defineFormat({
  name: 'html',
  summary: 'one HTML page',
  extensions: ['.html', '.htm'],
  kind: 'document',
  can: [],
  documentParts: ['text'],
});
