// `recall-feed schema`: a contract's JSON Schema on stdout, or the list of contracts.
import type { Context } from '../../runtime/context.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { CONTRACTS, contractSchema, isContract } from './contracts.js';

export function runSchema(name: string | undefined, list: boolean, ctx: Context): void {
  const names = Object.keys(CONTRACTS);
  if (list || name === undefined) {
    if (!list) throw new UsageError('name a contract', `one of: ${names.join(', ')} (recall-feed schema --list)`);
    for (const n of names) {
      const description = (CONTRACTS[n as keyof typeof CONTRACTS] as { description?: string }).description ?? '';
      ctx.stdout.write(`${n}\t${description}\n`);
    }
    return;
  }
  if (!isContract(name)) throw new UsageError(`no contract named '${name}'`, `one of: ${names.join(', ')}`);
  ctx.stdout.write(`${JSON.stringify(contractSchema(name), null, 2)}\n`);
}
