// The archive's schema as forward migrations: MIGRATIONS[n] takes a file from version n to n + 1.
//
// The version lives in `PRAGMA user_version`, the file's identity in `PRAGMA application_id`. A migration
// only ever adds; docs/archive.md describes the result for people who open the file with other tools.

/** `PRAGMA application_id` of a recall-feed archive: "RCFA" in ASCII. */
export const APPLICATION_ID = 0x52434641;

/** The columns of recalls_fts, as V1 creates them; recalls.ts fills them (ftsValues in record-columns.ts). */
export const FTS_COLUMNS = ['title', 'summary', 'product', 'brand', 'models', 'hazard', 'descriptions'] as const;

/** recalls_fts and its merge setting, as V1 creates them (V1's text is unchanged); V7 creates them so again. */
export const FTS_TABLE = `CREATE VIRTUAL TABLE recalls_fts USING fts5(title, summary, product, brand, models, hazard, descriptions, tokenize = 'unicode61 remove_diacritics 2');
-- Each page's commit adds a segment; merging them 16 at a time rather than 8 costs a sync less CPU, a search no time.
INSERT INTO recalls_fts (recalls_fts, rank) VALUES ('automerge', 16);`;

const V1 = `
CREATE TABLE sync_runs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at    TEXT NOT NULL,
  ended_at      TEXT,
  params        TEXT NOT NULL,
  fetched       INTEGER NOT NULL DEFAULT 0,
  added         INTEGER NOT NULL DEFAULT 0,
  updated       INTEGER NOT NULL DEFAULT 0,
  unchanged     INTEGER NOT NULL DEFAULT 0,
  outcome       TEXT NOT NULL DEFAULT 'running',
  error         TEXT
);

CREATE TABLE recalls (
  id                  INTEGER PRIMARY KEY,
  data_source         TEXT,
  published_at        TEXT,
  updated_at          TEXT,
  published_us        INTEGER,
  updated_us          INTEGER,
  created_us          INTEGER,
  version             INTEGER NOT NULL,
  first_run           INTEGER REFERENCES sync_runs(id),
  version_run         INTEGER REFERENCES sync_runs(id),
  filter_severity     TEXT NOT NULL,
  filter_status       TEXT NOT NULL,
  filter_risk         TEXT NOT NULL,
  filter_jurisdiction TEXT NOT NULL,
  filter_category     TEXT,
  filter_brand        TEXT,
  filter_country      TEXT,
  raw                 TEXT NOT NULL
);
CREATE INDEX recalls_published ON recalls (published_us, id);
CREATE INDEX recalls_updated ON recalls (updated_us, id);
CREATE INDEX recalls_created ON recalls (created_us, id);

CREATE TABLE recall_versions (
  recall_id     INTEGER NOT NULL,
  version       INTEGER NOT NULL,
  updated_at    TEXT,
  stored_run    INTEGER REFERENCES sync_runs(id),
  replaced_run  INTEGER REFERENCES sync_runs(id),
  raw           TEXT NOT NULL,
  PRIMARY KEY (recall_id, version)
) WITHOUT ROWID;

${FTS_TABLE}
`;

/** Where the recalls come from ('api' or 'sandbox'), recorded by the first sync: the two are never mixed. */
const V2 = `
CREATE TABLE archive_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

// Cases: one per (catalogue row, recall) pair that \`match --open-cases\` found, and their append-only
// timeline. Portable SQL (PostgreSQL mirrors it); each event's hash chains it to the one before (cases-chain.ts),
// and UNIQUE (prev_hash) means two writers can never both append after the same event.
const V3 = `
CREATE TABLE cases (
  id            INTEGER PRIMARY KEY,
  recall_id     INTEGER NOT NULL,
  catalog_key   TEXT NOT NULL,
  level         TEXT NOT NULL,
  reason        TEXT NOT NULL,
  catalog_row   TEXT NOT NULL,
  alert_title   TEXT,
  status        TEXT NOT NULL,
  outcome       TEXT,
  opened_at     TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  UNIQUE (catalog_key, recall_id)
);
CREATE INDEX cases_recall ON cases (recall_id);
CREATE INDEX cases_status ON cases (status, id);

CREATE TABLE case_events (
  seq           INTEGER PRIMARY KEY,
  case_id       INTEGER NOT NULL REFERENCES cases(id),
  at            TEXT NOT NULL,
  actor         TEXT NOT NULL,
  action        TEXT NOT NULL,
  status        TEXT NOT NULL,
  outcome       TEXT,
  note          TEXT,
  detail        TEXT,
  prev_hash     TEXT NOT NULL UNIQUE,
  hash          TEXT NOT NULL
);
CREATE INDEX case_events_case ON case_events (case_id, seq);
`;

// Commit stamps (docs/digest.md): each recall's first and current version carry the archive's clock, in µs, read
// after its page took the write lock; a digest attributes recalls to its period by them, not by when the sync
// started. archive_meta's 'commit_us' keeps them increasing even if the clock steps back. Older rows get the
// start of the run that stored them. sync_runs.served: the sources the API's answers said it applied.
const V4 = `
ALTER TABLE recalls ADD COLUMN first_us INTEGER;
ALTER TABLE recalls ADD COLUMN version_us INTEGER;
ALTER TABLE sync_runs ADD COLUMN served TEXT;
UPDATE recalls SET
  first_us = (SELECT CAST((julianday(started_at) - 2440587.5) * 86400000000 AS INTEGER) FROM sync_runs WHERE id = recalls.first_run),
  version_us = (SELECT CAST((julianday(started_at) - 2440587.5) * 86400000000 AS INTEGER) FROM sync_runs WHERE id = recalls.version_run);
CREATE INDEX recalls_first_us ON recalls (first_us);
CREATE INDEX recalls_version_us ON recalls (version_us);
INSERT OR REPLACE INTO archive_meta (key, value) VALUES ('commit_us', (SELECT CAST(coalesce(max(version_us), 0) AS TEXT) FROM recalls));
`;

// The delivery queue of sync's actions (the transactional outbox): a row per recall version and action, written in
// the page's transaction; a host claims rows with a lease (features/outbox.ts). PostgreSQL's mirrors it.
const V5 = `
CREATE TABLE outbox (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  recall_id     INTEGER NOT NULL,
  version       INTEGER NOT NULL,
  action        TEXT NOT NULL,
  kind          TEXT NOT NULL,
  raw           TEXT NOT NULL,
  created_run   INTEGER REFERENCES sync_runs(id),
  state         TEXT NOT NULL DEFAULT 'pending',
  attempts      INTEGER NOT NULL DEFAULT 0,
  claimed_by    TEXT,
  lease_until   INTEGER,
  last_error    TEXT,
  done_at       TEXT,
  UNIQUE (recall_id, version, action)
);
CREATE INDEX outbox_pending ON outbox (state, id);
`;

// What stats counts by, beside raw (STAT_COLUMNS in record-columns.ts): each field's JSON text, NULL when absent, as
// \`->\` gives it. Counting by json_extract over raw parsed every record's JSON (105 s at a million recalls). The index
// covers every column stats reads, so it counts from the index alone, never the wide rows (4% of the table's size).
const V6 = `
ALTER TABLE recalls ADD COLUMN stat_severity TEXT;
ALTER TABLE recalls ADD COLUMN stat_status TEXT;
ALTER TABLE recalls ADD COLUMN stat_risk TEXT;
ALTER TABLE recalls ADD COLUMN stat_jurisdiction TEXT;
ALTER TABLE recalls ADD COLUMN stat_category TEXT;
ALTER TABLE recalls ADD COLUMN stat_brand TEXT;
ALTER TABLE recalls ADD COLUMN stat_country TEXT;
UPDATE recalls SET
  stat_severity = raw -> '$.risk_severity',
  stat_status = raw -> '$.alert_status',
  stat_risk = raw -> '$.risk_types',
  stat_jurisdiction = raw -> '$.geo_jurisdictions',
  stat_category = raw -> '$.product_category',
  stat_brand = raw -> '$.product_brand',
  stat_country = raw -> '$.country_of_origin';
CREATE INDEX recalls_stats ON recalls (published_us, data_source, stat_severity, stat_status, stat_category, stat_brand,
  stat_country, stat_risk, stat_jurisdiction);
`;

// Archives made by 33d23d5 to 902b417^ (four commits, reverted without a migration) got from their V1 a token-only
// recalls_fts (detail = none, no copy of the text), which refuses the phrase that a --search word of several tokens
// (ZR-0532) asks for. SQL cannot ask which index a file has, so V7's work is code, run by open.ts after this (empty)
// SQL: fts-repair.ts rebuilds such an index as V1 creates it and fills it from the recalls; other archives only have
// their version raised.
const V7 = '';

/** Each entry is one schema version's SQL; never edit a released one, append the next. */
export const MIGRATIONS: readonly string[] = [V1, V2, V3, V4, V5, V6, V7];

/** The first version whose recalls_fts is V1's on every file (V7): a read-only open of an older interim one is refused. */
export const FTS_REPAIR_VERSION = 7;

/** The first version with the stat_* columns (V6): stats over an older file, opened read-only, reads raw. */
export const STAT_COLUMNS_VERSION = 6;

/** The first version with commit stamps (V4): a digest of an older archive asks for a sync first. */
export const STAMPS_VERSION = 4;

/** The version this build writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;
