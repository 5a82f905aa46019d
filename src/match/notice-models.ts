// Model numbers a notice writes in its description ("with model numbers TSSTTVFDXL, TSSTTVFDDG and TSSTTVFDMAF").
import { modelKey } from './match-keys.js';

/** A model label, then its codes; "Model PL02", "model numbers A, B or C", "Model No.: X". */
const MODEL_LABEL = /\bmodels?(?: numbers?| nos?\.?| #)?\s*(?:[:#]\s*)?/gi;
/** A model code: letters, digits and . - / _, 3 characters or more, with a digit, or in capitals ("TSSTTVFDXL"). */
const MODEL_CODE = /^(?:(?=.*\d)[A-Za-z0-9][A-Za-z0-9.\-/_]{2,}|[A-Z][A-Z\-/_]{4,})$/;
const JOIN = /^(?:and|or|&|,)$/i;
/** How much of a field is read: a hostile one may be huge. */
const TEXT_LIMIT = 4000;

/** The model keys a notice's text lists after a model label; empty when it lists none. */
export function textModelKeys(text: string): string[] {
  const keys: string[] = [];
  const head = text.slice(0, TEXT_LIMIT);
  for (const m of head.matchAll(MODEL_LABEL)) {
    const words = head
      .slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 300)
      .split(/\s+|(?=,)|(?<=,)/);
    for (const raw of words) {
      const w = raw.replace(/[);:]+$|\.$/, '');
      if (w === '' || JOIN.test(w)) continue;
      if (!MODEL_CODE.test(w)) break;
      keys.push(modelKey(w));
    }
  }
  return keys;
}
