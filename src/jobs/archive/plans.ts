// The plans of the archive commands: what `sync`, `query`, `show` and `stats` run with, checked by their command files.
import type { StatsField } from '../../archive/stats-fields.js';
import type { ArchiveListing, ArchiveQuery } from '../../archive/store.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { ActionsPlan, PollPlan } from '../watch/plan.js';

export interface QueryPlan {
  db: DbChoice;
  listing: ArchiveListing;
  columns: string[] | undefined;
  formulaGuard: boolean;
  bom: boolean;
}

export interface StatsPlan {
  db: DbChoice;
  query: ArchiveQuery;
  by: StatsField[];
  live: boolean;
}

export interface ShowPlan {
  id: number;
  history: boolean;
  db: DbChoice;
}

export interface SyncPlan {
  db: DbChoice;
  /** Undefined: the profile's sources, else all the key may use. */
  sources: string[] | undefined;
  hours: number;
  /** Set with --watch: the pace of its syncs. */
  watch: PollPlan | undefined;
  /** --exec, --webhook, --email: what is done for each recall the sync stores. */
  actions?: ActionsPlan;
  /** --on-update: the actions fire for new versions too. */
  onUpdate?: boolean;
}
