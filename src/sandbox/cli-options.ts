// Parsers for the sandbox command's flags (--faults, --rate-limit, --keys); bad input -> InvalidParamsError.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { parseDuration } from '../api/duration.js';
import { InvalidParamsError } from '../api/api-errors.js';
import { SOURCE_IDS } from '../api/schemas.js';
import type { FaultConfig } from './faults.js';
import { SOURCE_ALIASES, canonicalSource, type SandboxKey } from './demo-keys.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './limiter.js';

type ShareKey = 'error500' | 'error503' | 'html502' | 'cut' | 'truncate' | 'slow' | 'stall' | 'burst429';
const SHARE_NAMES: Record<string, ShareKey> = {
  '500': 'error500',
  error500: 'error500',
  '503': 'error503',
  error503: 'error503',
  '502': 'html502',
  html502: 'html502',
  cut: 'cut',
  truncate: 'truncate',
  slow: 'slow',
  stall: 'stall',
  '429': 'burst429',
  burst429: 'burst429',
};
const FAIL_MODES: Record<string, NonNullable<FaultConfig['failMode']>> = {
  '503': 'error503',
  error503: 'error503',
  '500': 'error500',
  error500: 'error500',
  cut: 'cut',
};
const FAULT_FORM =
  'expected comma-separated name=value: 500|503|502|cut|truncate|slow|stall|429=<share 0-1>, seed=<int>, slow-ms=<duration>, stall-ms=<duration>, burst-length=<int>, fail-after=<pages>, fail-mode=503|500|cut';

/** `500=0.2,503=0.1,502=0.05,cut=0.05,truncate=0.05,slow=0.1,stall=0.01,429=0.02,seed=7,slow-ms=800,fail-after=5` */
export function parseFaultSpec(s: string, flag = '--faults'): FaultConfig {
  const out: FaultConfig = {};
  const fail = (what: string): never => {
    throw new InvalidParamsError(`${flag}: ${what}; ${FAULT_FORM}`);
  };
  if (s.trim() === '' || s.trim() === 'none') return out;
  for (const part of s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const eq = part.indexOf('=');
    if (eq <= 0) fail(`"${part}" is not name=value`);
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    const int = (min: number): number => {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n) || n < min) fail(`${name} must be a whole number >= ${min}, got "${value}"`);
      return n;
    };
    const shareKey = SHARE_NAMES[name];
    if (shareKey) {
      const n = /^(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN;
      if (!(n >= 0 && n <= 1)) fail(`${name} must be a share from 0 to 1, got "${value}"`);
      out[shareKey] = n;
      continue;
    }
    switch (name) {
      case 'seed':
        out.seed = int(0);
        break;
      case 'slow-ms':
      case 'stall-ms': {
        const ms = parseDuration(value, 'ms');
        if (ms === undefined || ms > 600_000)
          fail(`${name} must be a duration up to 10m such as 800 or 2s, got "${value}"`);
        out[name === 'slow-ms' ? 'slowMs' : 'stallMs'] = ms;
        break;
      }
      case 'burst-length':
        out.burstLength = int(1);
        break;
      case 'fail-after':
        out.failAfterPages = int(0);
        break;
      case 'fail-mode': {
        const mode = FAIL_MODES[value.toLowerCase()];
        if (!mode) fail(`fail-mode must be 503, 500 or cut, got "${value}"`);
        out.failMode = mode;
        break;
      }
      default:
        fail(`unknown fault "${name}"`);
    }
  }
  const total = Object.values(SHARE_NAMES)
    .filter((k, i, a) => a.indexOf(k) === i)
    .reduce((sum, k) => sum + (out[k] ?? 0), 0);
  if (total > 1 + 1e-9) fail(`the shares add up to ${Number(total.toFixed(6))}, more than 1`);
  return out;
}

const RATE_FORM =
  'expected comma-separated minute|hour|day=<count>[/<window>] and month=<count>, windows like 500ms, 2s, 1m, 1h, 1d';

/** `minute=10/2s,hour=100/20s,day=1000/1m,month=5000`; windows not named keep the spec's values. */
export function parseRateLimitSpec(s: string, flag = '--rate-limit'): RateLimitConfig {
  const fail = (what: string): never => {
    throw new InvalidParamsError(`${flag}: ${what}; ${RATE_FORM}`);
  };
  const cfg: RateLimitConfig = structuredClone(DEFAULT_RATE_LIMITS);
  const parts = s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  if (parts.length === 0) fail('no limits given');
  for (const part of parts) {
    const m = /^([a-z]+)=(\d+)(?:\/(.+))?$/.exec(part);
    if (!m) fail(`"${part}" is not name=count[/window]`);
    const [, name, countText, windowText] = m as RegExpExecArray;
    const limit = Number(countText);
    if (!Number.isSafeInteger(limit)) fail(`${name} count is too large`);
    if (name === 'month') {
      if (windowText !== undefined) fail('month takes a count only (it is a calendar month)');
      cfg.month = { limit };
      continue;
    }
    if (name !== 'minute' && name !== 'hour' && name !== 'day') fail(`unknown window "${name}"`);
    const w = name as 'minute' | 'hour' | 'day';
    let windowMs = cfg[w].windowMs;
    if (windowText !== undefined) {
      const ms = parseDuration(windowText);
      if (ms === undefined || ms <= 0)
        fail(`window "${windowText}" of ${name} is not a duration with a unit (ms, s, m, h, d)`);
      windowMs = ms as number;
    }
    cfg[w] = { limit, windowMs };
  }
  return cfg;
}

/** Like parseRateLimitSpec, plus `off` (or `none`, `false`) for no limiting. */
export function parseRateLimitFlag(s: string, flag = '--rate-limit'): RateLimitConfig | false {
  return ['off', 'none', 'false'].includes(s.trim().toLowerCase()) ? false : parseRateLimitSpec(s, flag);
}

const VALID_SOURCE_IDS: readonly string[] = [...SOURCE_IDS, ...Object.keys(SOURCE_ALIASES)];

const KeysFileSchema = z
  .array(
    z.object({
      key: z.string().regex(/^[\x21-\x7e]{8,200}$/, 'must be 8 to 200 printable characters without spaces'),
      sources: z
        .array(
          z.string().refine((s) => VALID_SOURCE_IDS.includes(s), {
            message: `unknown source ID (valid: ${SOURCE_IDS.join(', ')})`,
          }),
        )
        .min(1, 'must list at least one source'),
      name: z.string().min(1).max(100).optional(),
    }),
  )
  .min(1, 'must hold at least one key');

/** Reads `[{"key":..,"sources":[..],"name"?:..}]`; names default to key-1, key-2, ... */
export function loadKeysFile(path: string, flag = '--keys'): SandboxKey[] {
  let text: string;
  // A named pipe with no writer would block the read where no signal ends it.
  const found = statSync(path, { throwIfNoEntry: false });
  if (found && !found.isFile()) throw new InvalidParamsError(`${flag} ${path}: not a regular file`);
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InvalidParamsError(
      `${flag} ${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidParamsError(
      `${flag} ${path}: not valid JSON; expected [{"key":"...","sources":["us_cpsc"],"name":"..."}]`,
    );
  }
  const parsed = KeysFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length
      ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
      : '(top level)';
    throw new InvalidParamsError(
      `${flag} ${path}: ${where}: ${issue?.message ?? 'invalid'}; expected [{"key":"...","sources":["us_cpsc"],"name":"..."}]`,
    );
  }
  const keys = parsed.data.map((k, i) => ({
    key: k.key,
    name: k.name ?? `key-${i + 1}`,
    sources: [...new Set(k.sources.map(canonicalSource))],
  }));
  const dupKey = keys.find((k, i) => keys.findIndex((o) => o.key === k.key) !== i);
  if (dupKey) throw new InvalidParamsError(`${flag} ${path}: the key named "${dupKey.name}" appears twice`);
  const dupName = keys.find((k, i) => keys.findIndex((o) => o.name === k.name) !== i);
  if (dupName) throw new InvalidParamsError(`${flag} ${path}: the name "${dupName.name}" is used twice`);
  return keys;
}
