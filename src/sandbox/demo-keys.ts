// Sandbox API keys and the data-source catalogue: demo keys, key lookup and source-ID aliases.
import { SOURCE_ALIASES, canonicalSource } from '../api/constants.js';
import { SOURCE_IDS } from '../api/schemas.js';

export interface SandboxKey {
  key: string;
  name: string;
  sources: string[];
}

/**
 * Fixed demo keys, shaped like real ones ('dr_test_' + 40 characters of [a-z0-9]) so that tools which
 * check the key format accept them. They are not secret: they only open this local sandbox.
 *
 * - all:     dr_test_sbx0all0sources07k2m9q4w8e1r5t3y6u0i2o4p  (all 5 sources)
 * - limited: dr_test_sbx0limited0us0uk03h8j1n6b4v9c2x7z5l0gws  (us_cpsc, uk_opss)
 */
export const DEMO_KEYS: { all: SandboxKey; limited: SandboxKey } = {
  all: {
    key: 'dr_test_sbx0all0sources07k2m9q4w8e1r5t3y6u0i2o4p',
    name: 'demo-all',
    sources: [...SOURCE_IDS],
  },
  limited: {
    key: 'dr_test_sbx0limited0us0uk03h8j1n6b4v9c2x7z5l0gws',
    name: 'demo-limited',
    sources: ['us_cpsc', 'uk_opss'],
  },
};

/** Other spellings the API accepts for a source ID (the docs use both): the client's own table. */
export { SOURCE_ALIASES, canonicalSource };

export interface SourceInfo {
  id: string;
  name: string;
  description: string;
  official_url: string;
}

/** Names and descriptions follow the API docs where they give them; the rest are the agencies' public sites. */
export const SOURCE_CATALOG: Record<string, SourceInfo> = {
  us_cpsc: {
    id: 'us_cpsc',
    name: 'US CPSC',
    description: 'US Consumer Product Safety Commission - Consumer products',
    official_url: 'https://www.cpsc.gov',
  },
  safety_gate: {
    id: 'safety_gate',
    name: 'EU Safety Gate',
    description: 'European Commission Safety Gate rapid alert system (RAPEX)',
    official_url: 'https://ec.europa.eu/safety-gate',
  },
  uk_opss: {
    id: 'uk_opss',
    name: 'UK OPSS',
    description: 'UK Office for Product Safety & Standards',
    official_url: 'https://www.gov.uk/opss',
  },
  rappel_conso: {
    id: 'rappel_conso',
    name: 'RappelConso',
    description: 'France RappelConso (General Products)',
    official_url: 'https://rappel.conso.gouv.fr',
  },
  rappel_conso_food: {
    id: 'rappel_conso_food',
    name: 'RappelConso Alimentation',
    description: 'France RappelConso (Food Products)',
    official_url: 'https://rappel.conso.gouv.fr',
  },
};

/** Looks keys up by their full value; the log only ever sees the key's name. */
export class KeyRing {
  private readonly byKey = new Map<string, SandboxKey>();
  constructor(keys: SandboxKey[]) {
    for (const k of keys) {
      this.byKey.set(k.key, { ...k, sources: [...new Set(k.sources.map(canonicalSource))] });
    }
  }
  find(key: string | undefined): SandboxKey | undefined {
    return key === undefined ? undefined : this.byKey.get(key);
  }
  list(): SandboxKey[] {
    return [...this.byKey.values()];
  }
}
