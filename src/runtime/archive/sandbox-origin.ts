// Whether a run's recalls come from a sandbox: --sandbox, or a sandbox's key (dr_test_…), such as a lasting `recall-feed sandbox` serves.
import type { Settings } from '../settings.js';

/**
 * The sandbox's demo keys start so (src/sandbox/demo-keys.ts), and so do the API's announced test keys:
 * neither serves real recalls, so their recalls are kept apart from real ones like --sandbox's.
 */
const SANDBOX_KEY_PREFIX = 'dr_test_';

/** True for --sandbox and for a dr_test_ key: the archive is then recalls-sandbox.db by default, claimed 'sandbox'. */
export function fromSandbox(settings: Pick<Settings, 'sandbox' | 'apiKey'>): boolean {
  return settings.sandbox || (settings.apiKey?.startsWith(SANDBOX_KEY_PREFIX) ?? false);
}
