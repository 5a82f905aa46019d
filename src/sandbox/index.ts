// Public entry of the sandbox: startSandbox, the demo keys, the option parsers and the public types.
//
// What the sandbox simulates (stripe-mock for the recall feed API, following docs/api.md):
// - GET /health (no key), /v1/recalls/feed, /v1/recalls/sources and the custom feed /v1/recalls/feed/demo,
//   with every error in the {"detail":{error,message,details?,help}} envelope.
// - Seeded, deterministic data: `recordCount` records published in the last 24 h (kept 10 min clear of
//   the edge) plus ~5 % older ones that the feed never returns; ties in every sort field; awkward values.
// - Keyset cursors (base64 JSON of id, sort field, order and the last sort value); ties broken by id.
// - Per-key sliding minute/hour/day windows and a calendar-month quota; 429 reset_at rounded up to the
//   second a request is allowed again. Requests past auth count, except refused (429) ones.
// - Updates: `updatesPerMinute` (or POST /_sandbox/updates {"count":n}, answered with the ids) gives records of
//   the window a new version: a newer updated_at, alert_status "updated", another risk_severity.
// - Faults on /v1 requests only: 500, 503, HTML 502, cut connections, truncated JSON, slow and stalled
//   answers, 429 bursts, and "fail after N pages".
// What it does not: persist anything, serve real recalls, expire cursors, or check that a cursor is
// reused with the same data_sources/hours_ago (only sort_by/sort_order must match).
//
// Request log: every request except the /_sandbox/ hooks (so stray paths outside /v1 show up too),
// newest 50 000 kept. HTTP hooks answer {"requests":[..]}, {"records":[..]}, {"faults":{..}},
// {"healthy":bool} or {"ok":true}; bad hook bodies get 400 validation_error.
export { startSandbox } from './start.js';
export { DEMO_KEYS, SOURCE_CATALOG, type SandboxKey } from './demo-keys.js';
export { DEFAULT_RATE_LIMITS, type RateLimitConfig, type WindowLimit } from './limiter.js';
export type { FaultConfig } from './faults.js';
export type { RequestLogEntry, Sandbox, SandboxOptions } from './types.js';
export { loadKeysFile, parseFaultSpec, parseRateLimitFlag, parseRateLimitSpec } from './cli-options.js';
export { SANDBOX_VERSION } from './server.js';
export type { SpecRecall } from '../api/schemas.js';
