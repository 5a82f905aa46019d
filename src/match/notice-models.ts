// Model numbers a notice lists: its model field, its description's "model numbers …", a retailer's "Item# 19927".
import { stringValues } from '../filters/record-filter.js';
import { modelKey, revisionBase } from './match-keys.js';
import { MIN_MODEL_KEY } from './match-thresholds.js';

/** A model label, then its codes; "Model PL02", "model numbers A, B or C", "Model No.: X". */
const MODEL_LABEL = /\bmodels?(?: numbers?| nos?\.?| #)?\s*(?:[:#]\s*)?/gi;
/** A model code: letters, digits and . - / _, 3 characters or more, with a digit, or in capitals ("TSSTTVFDXL"). */
const MODEL_CODE = /^(?:(?=.*\d)[A-Za-z0-9][A-Za-z0-9.\-/_]{2,}|[A-Z][A-Z\-/_]{4,})$/;
const JOIN = /^(?:and|or|&|,)$/i;
/** How much of a field is read: a hostile one may be huge. */
const TEXT_LIMIT = 4000;

/**
 * A retailer's own number for the product, labelled: "Costco Item# 19927", "Item No. 123456", "SKU 4471", or a number
 * of four digits or more after "#" ("Wegmans #270010"). A lot or an establishment is never one: "Lot #1234", "Est. #1234".
 */
const ITEM_LABEL =
  /\b(?:item|sku|article|art\.)(?: numbers?| nos?\.?| #)?\s*(?:[:#]\s*)?|(?<![\p{L}\p{N}#])(?<!\b(?:est|lot|batch|code|case|no)\.?\s?)#\s?(?=\d{4,}\b)/giu;

/** The model keys a notice's text lists after a model label; empty when it lists none. */
export function textModelKeys(text: string, label: RegExp = MODEL_LABEL): string[] {
  const keys: string[] = [];
  const head = text.slice(0, TEXT_LIMIT);
  for (const m of head.matchAll(label)) {
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

/** A model a notice lists: as written, its key, and the model it is a revision of ("NTRW19147.0" of "NTRW19147"). */
export interface NoticeModel {
  raw: string;
  key: string;
  base: string | undefined;
  /** A retailer's item number: it finds that retailer's row, but never says another row is a different model. */
  item?: true;
}

/**
 * The models a notice lists, each key once: its model field, then the retailer's item numbers its product name or
 * description writes. An item number is a model like any other: with the row's brand it makes model+brand.
 */
export function noticeModels(recall: Record<string, unknown>): NoticeModel[] {
  const out: NoticeModel[] = [];
  const seen = new Set<string>();
  const add = (model: NoticeModel) => {
    if (model.key.length < MIN_MODEL_KEY || seen.has(model.key)) return;
    seen.add(model.key);
    out.push(model);
  };
  for (const raw of stringValues(recall.product_model_numbers))
    add({ raw, key: modelKey(raw), base: revisionBase(raw) });
  for (const field of ['product_name', 'product_description']) {
    const text = recall[field];
    if (typeof text === 'string')
      for (const key of textModelKeys(text, ITEM_LABEL)) add({ raw: key, key, base: undefined, item: true });
  }
  return out;
}

/** The keys (and revision bases) of the models a notice lists as models: the brand's other models are other products. */
export function modelKeysOf(models: readonly NoticeModel[]): Set<string> {
  const keys = new Set<string>();
  for (const { key, base, item } of models) {
    if (item) continue;
    keys.add(key);
    if (base !== undefined) keys.add(base);
  }
  return keys;
}

/** The models a notice lists, in its model field or its description ("with model numbers TSSTTVFDXL, …"). */
export function describedModels(recall: Record<string, unknown>, listed: ReadonlySet<string>): Set<string> {
  const text = typeof recall.product_description === 'string' ? recall.product_description : '';
  return new Set([...listed, ...textModelKeys(text)]);
}
