// The plans of the commands that only ask the API (`sources`, `health`), checked by their command files.

/** What `sources` shows by default (table and csv). */
export const SOURCE_COLUMNS = ['id', 'name', 'description', 'official_url'];

export interface SourcesPlan {
  /** --columns: the table and csv columns; undefined for the default ones. */
  columns: string[] | undefined;
}

/** `health` takes no flags of its own: its format and base URL are the session's settings. */
export type HealthPlan = Record<never, never>;
