// Public entry of the archive store (see README.md): the Archive class, its query and stats types, its errors.
export { Archive } from './archive.js';
export {
  ArchiveError,
  ArchiveMissingError,
  ArchiveTooNewError,
  NotAnArchiveError,
  cannotWriteReason,
} from './archive-errors.js';
export { IN_MEMORY } from './open.js';
export type { ArchiveExtent, RunCounts, RunOutcome } from './runs.js';
export type { ArchiveListing, ArchiveQuery } from './select.js';
export { STATS_FIELDS, type StatsField } from './stats-fields.js';
export type { StatsResult, ValueCount } from './stats.js';
export type { StoredVersion } from './history.js';
export { computeHealth, type MonitoringHealth } from './health.js';
export type { StoredInPeriod } from './period-recalls.js';
export type { SyncRunRow } from './run-rows.js';
export type { ArchivedRecord, UpsertCounts } from './upsert.js';
export { SCHEMA_VERSION } from './schema.js';
export { CASE_STATUSES, OUTCOMES } from './cases-model.js';
export type {
  CaseCandidate,
  CaseEventView,
  CaseQuery,
  CaseStatus,
  CaseStep,
  CaseView,
  Outcome,
} from './cases-model.js';
export { CaseLogBrokenError, CaseNotFoundError, CaseStepError } from './cases-errors.js';
export type { CaseLogCheck } from './cases-verify.js';
export type { StepBy } from './cases.js';
