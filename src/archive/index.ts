// Public entry of the archive store (see README.md): openArchive and the ArchiveStore interface, its types and errors.
export { openArchive, openScratchArchive } from './open-archive.js';
export {
  ArchiveCorruptError,
  ArchiveDatabaseError,
  ArchiveError,
  ArchiveMissingError,
  ArchiveOriginError,
  ArchiveTooNewError,
  NotAnArchiveError,
  cannotWriteReason,
} from './archive-errors.js';
export { DEFAULT_SCHEMA, dbTarget, isDbUrl, maskDbUrl, type DbTarget } from './db-target.js';
export type {
  ArchiveExtent,
  ArchiveListing,
  ArchiveOrigin,
  ArchiveQuery,
  ArchiveStore,
  ArchivedRecord,
  OpenOptions,
  RunCounts,
  RunOutcome,
  StatsResult,
  StoredVersion,
  UpsertCounts,
  ValueCount,
} from './store.js';
export { STATS_FIELDS, type StatsField } from './stats-fields.js';
