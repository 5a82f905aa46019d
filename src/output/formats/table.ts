// The table format: records fitted to the terminal's width, for people.
import { defineFormat } from '../output-format.js';

export const tableFormat = defineFormat({
  name: 'table',
  summary: 'a table fitted to the terminal, for people (may change)',
  extensions: [],
  kind: 'records',
  can: ['streams', 'forPeople'],
  documentParts: ['people'],
  defaultOn: 'terminal',
  load: async () => {
    const { TableRenderer } = await import('../table.js');
    return { createRenderer: (opts) => new TableRenderer(opts) };
  },
});
