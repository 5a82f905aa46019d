// Runs `sources`: the data sources the key may use, as rows of the run's format.
import { counted } from '../../output/numbers.js';
import { columnWarnings } from '../../runtime/options/column-names.js';
import { announceWritten } from '../../runtime/files/write-output.js';
import type { Session } from '../../runtime/session.js';
import { SOURCE_COLUMNS, type SourcesPlan } from './plans.js';

/** The table's columns a narrow terminal may leave out, the first to go first. */
const SOURCE_DROP_ORDER = ['description', 'official_url', 'name'];

export async function runSources(plan: SourcesPlan, session: Session): Promise<void> {
  const api = await session.api({ needsKey: true });
  const output = await session.output();
  const answer = await api.client.sources();
  const { columns } = plan;
  for (const w of columnWarnings({ columns, format: output.format.name, records: answer.data_sources }))
    session.status.warn(w);
  // A narrow terminal leaves out the long texts first: the id, which --sources takes, is never cut.
  const spec = { columns, tableColumns: SOURCE_COLUMNS, csvColumns: SOURCE_COLUMNS, dropOrder: SOURCE_DROP_ORDER };
  await output.write((sink) => sink.rows(spec, answer.data_sources));
  announceWritten(api, counted(answer.data_sources.length, 'data source', 'data sources'));
  if (output.format.forPeople) session.status.note(`${answer.total_available} data sources available to this key`);
}
