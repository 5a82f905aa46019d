// Doctor's case-sla check: the deadline the profile gives the cases `match --open-cases` opens is one a run accepts,
// its form and its calendar, whether `config set` stored it before it asked date-holidays or a hand edited it.
import { caseSlaHint, caseSlaRefusal, unknownCaseSlaCalendar } from '../matching/sla.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { parseCaseSla } from '../../runtime/settings-parsers.js';
import { type CheckResult, fail, ok } from './check.js';

const SOURCE = 'the case-sla setting';

/** Undefined when the profile sets no case-sla: then there is nothing to check. */
export async function checkCaseSla(stored: string | undefined): Promise<CheckResult | undefined> {
  if (stored === undefined) return undefined;
  let value: string;
  try {
    value = parseCaseSla(stored, SOURCE);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return fail('case-sla', err.message, caseSlaHint());
  }
  const country = await unknownCaseSlaCalendar(value);
  if (country !== undefined) {
    const refusal = caseSlaRefusal(SOURCE, value, `no public holidays known for ${country}`);
    return fail('case-sla', `${refusal.message}: match --open-cases refuses it`, refusal.hint);
  }
  return ok('case-sla', `${value}: the deadline of the cases match --open-cases opens without --sla`);
}
