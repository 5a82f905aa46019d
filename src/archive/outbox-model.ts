// The delivery queue of sync's actions in the archive (the transactional outbox): its rows as both engines speak them.

/** Which actions a sync queues: for each recall it stores as new, and for each new version it stores. */
export interface OutboxActions {
  onNew: readonly string[];
  onUpdate: readonly string[];
}

/** One recall version owed one action, claimed by a host until its lease ends. */
export interface OutboxItem {
  id: number;
  recallId: number;
  version: number;
  action: string;
  /** 'new': the first version stored; 'update': a later one. */
  kind: 'new' | 'update';
  /** The version as stored when it was queued. */
  record: Record<string, unknown>;
  /** Attempts so far, this one included. */
  attempts: number;
}

export interface OutboxClaim {
  /** Who claims (host name and process): recorded, for people looking at the table. */
  host: string;
  /** Only rows of these actions (a host runs the actions it was given). */
  actions: readonly string[];
  /** How long the claim holds: a host killed mid-delivery leaves its rows to another after this. */
  leaseMs: number;
  limit: number;
  /** This host's clock (SQLite); PostgreSQL leases run on the server's clock, the same for every host. */
  nowMs: number;
}

/** A host keeping the rows of its claim it has not finished: each gets a fresh lease, if it is still this host's. */
/** Rows this host claimed, to give back unleased (a sync stopped in order before it tried them). */
export interface OutboxRelease {
  host: string;
  ids: readonly number[];
}

export interface OutboxRenewal {
  host: string;
  ids: readonly number[];
  leaseMs: number;
  /** This host's clock (SQLite); PostgreSQL's leases run on the server's. */
  nowMs: number;
}

/** How one attempt ended: done, to be retried after a while, or given up (it can never succeed). */
export type OutboxOutcome = { ok: true } | { ok: false; error: string; retryInMs: number; giveUp: boolean };

/** The backlog `doctor` and the metrics report. */
export interface OutboxBacklog {
  /** Rows still owed (claimed or not). */
  pending: number;
  /** Of those, rows whose last attempt failed (they are retried). */
  retrying: number;
  /** Rows given up: their action can never succeed for that recall. */
  failed: number;
}

/** One row per (recall, version) stored as new or updated in a page, to be queued for the actions that apply. */
export interface OutboxEntry {
  recallId: number;
  version: number;
  kind: 'new' | 'update';
  raw: string;
}

/** The rows `entries` owe under `actions`. */
export function outboxRows(
  entries: readonly OutboxEntry[],
  actions: OutboxActions | undefined,
): (OutboxEntry & { action: string })[] {
  if (!actions) return [];
  return entries.flatMap((e) =>
    (e.kind === 'new' ? actions.onNew : actions.onUpdate).map((action) => ({ ...e, action })),
  );
}

/** An outbox row as both engines select it for a claim. */
export interface OutboxRow {
  id: number;
  recall_id: number;
  version: number;
  action: string;
  kind: 'new' | 'update';
  raw: string;
  /** Attempts counted so far, this claim's included. */
  attempts: number;
}

/** A claimed row as the delivery loop takes it: the stored version parsed. */
export function outboxItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    recallId: row.recall_id,
    version: row.version,
    action: row.action,
    kind: row.kind,
    record: JSON.parse(row.raw) as Record<string, unknown>,
    attempts: row.attempts,
  };
}
