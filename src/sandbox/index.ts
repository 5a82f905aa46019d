// Public entry of the sandbox: startSandbox, the demo keys, the option parsers and the public types.
export { startSandbox } from './start.js';
export { DEMO_KEYS, SOURCE_CATALOG, type SandboxKey } from './keys.js';
export { DEFAULT_RATE_LIMITS, type RateLimitConfig, type WindowLimit } from './limiter.js';
export type { FaultConfig } from './faults.js';
export type { RequestLogEntry, Sandbox, SandboxOptions } from './types.js';
export { loadKeysFile, parseFaultSpec, parseRateLimitFlag, parseRateLimitSpec } from './cli-options.js';
export { SANDBOX_VERSION } from './server.js';
export type { SpecRecall } from '../api/schemas.js';
