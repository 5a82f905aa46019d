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
  Period,
  RunCounts,
  RunOutcome,
  StatsResult,
  StoredInPeriod,
  StoredVersion,
  UpsertCounts,
  ValueCount,
} from './store.js';
export { STATS_FIELDS, type StatsField } from './stats-fields.js';
export { computeHealth, type MonitoringHealth } from './health.js';
export type { SyncRunRow } from './run-rows.js';
export { CASE_STATUSES, OUTCOMES } from './cases-model.js';
export type {
  CaseCandidate,
  CaseEventView,
  CaseQuery,
  CaseStatus,
  CaseStep,
  CaseView,
  Outcome,
  StepBy,
} from './cases-model.js';
export { CaseLogBrokenError, CaseNotFoundError, CasesNotKeptError, CaseStepError } from './cases-errors.js';
export type { CaseLogCheck } from './cases-chain.js';
export type {
  OutboxActions,
  OutboxBacklog,
  OutboxClaim,
  OutboxItem,
  OutboxOutcome,
  OutboxRenewal,
} from './outbox-model.js';
