// The plans of the archive commands: what `sync`, `query`, `show` and `stats` run with, checked by their command files.
import type { ArchiveListing, ArchiveQuery } from '../../archive/select.js';
import type { StatsField } from '../../archive/stats-fields.js';

export interface QueryPlan {
  db: string | undefined;
  listing: ArchiveListing;
  columns: string[] | undefined;
  formulaGuard: boolean;
  bom: boolean;
}

export interface StatsPlan {
  db: string | undefined;
  query: ArchiveQuery;
  by: StatsField[];
  live: boolean;
}

export interface ShowPlan {
  id: number;
  history: boolean;
  db: string | undefined;
}

export interface SyncPlan {
  db: string | undefined;
  /** Undefined: the profile's sources, else all the key may use. */
  sources: string[] | undefined;
  hours: number;
  /** Set with --watch: the pause between syncs. */
  intervalMs: number | undefined;
}
