// The output contracts `recall-feed schema` prints: each one's zod schema (the code's own), as JSON Schema 2020-12.
import { z } from 'zod';
import { RecallSchema } from '../../api/schemas.js';
import { SlackMessageSchema, TeamsMessageSchema } from '../../actions/webhook-schemas.js';
import { SyncSummarySchema } from './sync-summary-schema.js';
import { CaseSchema, ReportSchema } from './case-schema.js';
import { DigestSchema } from './digest-schema.js';
import { DoctorReportSchema } from './doctor-schema.js';
import { MatchRowSchema } from './match-row-schema.js';

/**
 * Raised when a contract changes incompatibly (a field removed, renamed or retyped); a field added keeps it.
 * The $id carries it, so a consumer pins the version it was written against. 2: the report's `chain_head` and
 * `chain.head` may be null (a broken case log has no head).
 */
export const CONTRACT_VERSION = 2;

const RecordContract = RecallSchema.describe(
  'A recall as recall-feed accepts it from the API and writes it unchanged (feed -f jsonl, query, the json webhook): an integer id, the source and published_at are required; every other field passes through.',
);

export const CONTRACTS = {
  record: RecordContract,
  match: MatchRowSchema,
  case: CaseSchema,
  digest: DigestSchema,
  report: ReportSchema,
  'sync-summary': SyncSummarySchema,
  doctor: DoctorReportSchema,
  'webhook-json': RecordContract.describe(
    '--webhook-format json (the default): the record as the API sent it, one POST per recall (digest --webhook posts the digest contract).',
  ),
  'webhook-slack': SlackMessageSchema,
  'webhook-teams': TeamsMessageSchema,
} as const satisfies Record<string, z.ZodType>;

export type ContractName = keyof typeof CONTRACTS;

export function isContract(name: string): name is ContractName {
  return Object.hasOwn(CONTRACTS, name);
}

export function contractId(name: ContractName): string {
  return `urn:recall-feed:schema:${name}:v${CONTRACT_VERSION}`;
}

/** The JSON Schema of one contract, as shipped in schemas/<name>.schema.json. */
export function contractSchema(name: ContractName): Record<string, unknown> {
  const schema = z.toJSONSchema(CONTRACTS[name], { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return { $schema, $id: contractId(name), title: `recall-feed ${name}`, ...rest };
}
