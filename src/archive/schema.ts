// The archive's schema as forward migrations: MIGRATIONS[n] takes a file from version n to n + 1.
//
// The version lives in `PRAGMA user_version`, the file's identity in `PRAGMA application_id`. A migration
// only ever adds; docs/archive.md describes the result for people who open the file with other tools.

/** `PRAGMA application_id` of a recall-feed archive: "RCFA" in ASCII. */
export const APPLICATION_ID = 0x52434641;

const FTS_COLUMNS = 'title, summary, product, brand, models, hazard, descriptions';

/** The text the full-text index holds for a record, taken from its raw JSON (`src` is `new` or `old`). */
function ftsValues(src: string): string {
  const field = (name: string) => `json_extract(${src}.raw, '$.${name}')`;
  return [
    `${src}.id`,
    field('alert_title'),
    field('alert_summary'),
    field('product_name'),
    field('product_brand'),
    `(SELECT group_concat(value, ' ') FROM json_each(${src}.raw, '$.product_model_numbers'))`,
    field('hazard_description'),
    `concat_ws(' ', ${field('product_description')}, ${field('packaging_description')})`,
  ].join(', ');
}

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
CREATE INDEX recalls_source ON recalls (data_source);

CREATE TABLE recall_versions (
  recall_id     INTEGER NOT NULL,
  version       INTEGER NOT NULL,
  updated_at    TEXT,
  stored_run    INTEGER REFERENCES sync_runs(id),
  replaced_run  INTEGER REFERENCES sync_runs(id),
  raw           TEXT NOT NULL,
  PRIMARY KEY (recall_id, version)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE recalls_fts USING fts5(${FTS_COLUMNS}, tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER recalls_fts_insert AFTER INSERT ON recalls BEGIN
  INSERT INTO recalls_fts (rowid, ${FTS_COLUMNS}) VALUES (${ftsValues('new')});
END;
CREATE TRIGGER recalls_fts_update AFTER UPDATE OF raw ON recalls BEGIN
  DELETE FROM recalls_fts WHERE rowid = old.id;
  INSERT INTO recalls_fts (rowid, ${FTS_COLUMNS}) VALUES (${ftsValues('new')});
END;
CREATE TRIGGER recalls_fts_delete AFTER DELETE ON recalls BEGIN
  DELETE FROM recalls_fts WHERE rowid = old.id;
END;
`;

/** Each entry is one schema version's SQL; never edit a released one, append the next. */
export const MIGRATIONS: readonly string[] = [V1];

/** The version this build writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;
