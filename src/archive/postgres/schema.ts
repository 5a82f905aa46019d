// The PostgreSQL archive's schema as forward migrations, all inside one schema (default recall_feed).
//
// The version lives in archive_meta ('schema_version'); 'application' marks the schema as ours. A migration only
// ever adds. docs/archive.md describes the result; recalls_view is the table for BI tools.

/** The text every archive's archive_meta holds under 'application'. */
export const APPLICATION = 'recall-feed';

/** `"name"`: schema names are checked to be plain identifiers (db-target.ts), so quoting is all they need. */
export const quoted = (schema: string) => `"${schema}"`;

const v1 = (s: string) => `
CREATE TABLE ${s}.archive_meta (
  key   text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE ${s}.sync_runs (
  id          bigserial PRIMARY KEY,
  started_at  text NOT NULL,
  ended_at    text,
  params      text NOT NULL,
  fetched     integer NOT NULL DEFAULT 0,
  added       integer NOT NULL DEFAULT 0,
  updated     integer NOT NULL DEFAULT 0,
  unchanged   integer NOT NULL DEFAULT 0,
  outcome     text NOT NULL DEFAULT 'running',
  error       text
);

CREATE TABLE ${s}.recalls (
  id                  bigint PRIMARY KEY,
  data_source         text,
  published_at        text,
  updated_at          text,
  published_us        bigint,
  updated_us          bigint,
  created_us          bigint,
  version             integer NOT NULL,
  first_run           bigint REFERENCES ${s}.sync_runs (id),
  version_run         bigint REFERENCES ${s}.sync_runs (id),
  filter_severity     text[] NOT NULL,
  filter_status       text[] NOT NULL,
  filter_risk         text[] NOT NULL,
  filter_jurisdiction text[] NOT NULL,
  filter_category     text,
  filter_brand        text,
  filter_country      text,
  raw                 text NOT NULL,
  search              tsvector NOT NULL
);
CREATE INDEX recalls_published ON ${s}.recalls (published_us, id);
CREATE INDEX recalls_updated ON ${s}.recalls (updated_us, id);
CREATE INDEX recalls_created ON ${s}.recalls (created_us, id);
CREATE INDEX recalls_search ON ${s}.recalls USING gin (search);
ALTER TABLE ${s}.recalls ALTER COLUMN raw SET STORAGE EXTERNAL;

CREATE TABLE ${s}.recall_versions (
  recall_id     bigint NOT NULL,
  version       integer NOT NULL,
  updated_at    text,
  stored_run    bigint REFERENCES ${s}.sync_runs (id),
  replaced_run  bigint REFERENCES ${s}.sync_runs (id),
  raw           text NOT NULL,
  PRIMARY KEY (recall_id, version)
);

CREATE FUNCTION ${s}.text_array(j jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(j)) END $$;

CREATE VIEW ${s}.recalls_view AS
SELECT r.id,
       r.data_source,
       j ->> 'alert_title'           AS alert_title,
       j ->> 'alert_summary'         AS alert_summary,
       j ->> 'alert_status'          AS alert_status,
       j ->> 'risk_severity'         AS risk_severity,
       ${s}.text_array(j -> 'risk_types')        AS risk_types,
       j ->> 'hazard_description'    AS hazard_description,
       j ->> 'product_name'          AS product_name,
       j ->> 'product_brand'         AS product_brand,
       j ->> 'product_category'      AS product_category,
       ${s}.text_array(j -> 'product_model_numbers') AS product_model_numbers,
       j ->> 'country_of_origin'     AS country_of_origin,
       ${s}.text_array(j -> 'geo_jurisdictions') AS geo_jurisdictions,
       j ->> 'source_url'            AS source_url,
       to_timestamp(r.published_us / 1e6) AS published_at,
       to_timestamp(r.updated_us / 1e6)   AS updated_at,
       to_timestamp(r.created_us / 1e6)   AS created_in_db_at,
       r.version,
       j                             AS record
  FROM ${s}.recalls r CROSS JOIN LATERAL (SELECT r.raw::jsonb AS j) AS x;
`;

/** MIGRATIONS[n](schema) takes an archive from version n to n + 1; never edit a released one, append the next. */
export const MIGRATIONS: readonly ((schema: string) => string)[] = [v1];

/** The version this build writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;
