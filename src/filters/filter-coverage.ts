// Which filter values matched nothing: a mistyped `--severity seroius` is said on stderr, naming the values seen.
import { countryCode } from './countries.js';
import { fold } from './normalize.js';
import { compileText, FILTER_FIELDS, type FilterName, type RecordFilter, stringValues } from './record-filter.js';

/** How many values seen a warning names (the most frequent first); the rest are counted. */
const SHOWN = 12;
/** Distinct values kept per field while looking: enough to name, never unbounded. */
const KEPT = 500;

/** A filter value that matched no recall looked at; `seen` the field's values, most frequent first (list fields). */
export interface UnmatchedValue {
  name: FilterName;
  value: string;
  seen?: string[];
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `--severity seroius matched no recall of the 1,200 looked at; values seen: high, low, serious` */
export function unmatchedMessage(u: UnmatchedValue, looked: number, where = 'looked at'): string {
  const known = u.name !== 'country' || countryCode(u.value) !== undefined;
  const head = `--${u.name} ${u.value} matched no recall of the ${thousands(looked)} ${where}${known ? '' : `; ${u.value} is no country this tool knows (an ISO code such as DE, or a name such as Germany)`}`;
  if (u.seen === undefined) return head;
  if (u.seen.length === 0) return `${head}; none of them has a ${FILTER_FIELDS[u.name].field}`;
  const more = u.seen.length > SHOWN ? `, … (${u.seen.length - SHOWN} more)` : '';
  return `${head}; values seen: ${u.seen.slice(0, SHOWN).join(', ')}${more}`;
}

/** The list values of `filter` absent from the values seen per field (compared without case or accents). */
export function unmatchedIn(filter: RecordFilter, seen: Partial<Record<FilterName, string[]>>): UnmatchedValue[] {
  const out: UnmatchedValue[] = [];
  for (const name of Object.keys(FILTER_FIELDS) as FilterName[]) {
    const wanted = filter[name];
    const values = seen[name];
    if (!Array.isArray(wanted) || values === undefined) continue;
    const folded = new Set(values.map(fold));
    for (const value of wanted) if (!folded.has(fold(value))) out.push({ name, value, seen: values });
  }
  return out;
}

/**
 * Watches the records a filter is applied to. `keep` is the filter's predicate; on the way it notes the
 * values each list field held and which text filters found something, so that a value that matched
 * nothing can be named afterwards, each field on its own (a typo in one is found whatever the others do).
 * Each field's text is folded once per record: the notes and the verdict come from the same pass.
 */
export class FilterCoverage {
  readonly keep: (record: Record<string, unknown>) => boolean;
  #looked = 0;
  readonly #lists = new Map<FilterName, { wanted: Set<string>; seen: Map<string, { shown: string; count: number }> }>();
  readonly #texts = new Map<FilterName, { test: (r: Record<string, unknown>) => boolean; hit: boolean }>();
  readonly #filter: RecordFilter;

  constructor(filter: RecordFilter) {
    this.#filter = filter;
    for (const name of Object.keys(FILTER_FIELDS) as FilterName[]) {
      const wanted = filter[name];
      if (wanted === undefined) continue;
      if (FILTER_FIELDS[name].kind === 'list')
        this.#lists.set(name, { wanted: new Set((wanted as string[]).map(fold)), seen: new Map() });
      else this.#texts.set(name, { test: compileText(name, wanted as string), hit: false });
    }
    this.keep = (record) => this.#look(record);
  }

  /** Notes what one record held; whether the filter keeps it. */
  #look(record: Record<string, unknown>): boolean {
    this.#looked++;
    let kept = true;
    for (const [name, { wanted, seen }] of this.#lists) {
      let found = false;
      for (const shown of stringValues(record[FILTER_FIELDS[name].field as string])) {
        const folded = fold(shown);
        if (wanted.has(folded)) found = true;
        const entry = seen.get(folded);
        if (entry) entry.count++;
        else if (seen.size < KEPT) seen.set(folded, { shown, count: 1 });
      }
      if (!found) kept = false;
    }
    // A text filter already hit need not run once the record is out.
    for (const text of this.#texts.values()) {
      if (text.hit && !kept) continue;
      if (text.test(record)) text.hit = true;
      else kept = false;
    }
    return kept;
  }

  /** The values that matched no record looked at; none before any record was looked at. */
  unmatched(): UnmatchedValue[] {
    if (this.#looked === 0) return [];
    const seen: Partial<Record<FilterName, string[]>> = {};
    for (const [name, { seen: values }] of this.#lists) {
      seen[name] = [...values.values()]
        .sort((a, b) => b.count - a.count || a.shown.localeCompare(b.shown))
        .map((v) => v.shown);
    }
    const out = unmatchedIn(this.#filter, seen);
    for (const [name, text] of this.#texts) if (!text.hit) out.push({ name, value: this.#filter[name] as string });
    return out;
  }

  /** One warning line per value that matched nothing. */
  messages(): string[] {
    return this.unmatched().map((u) => unmatchedMessage(u, this.#looked));
  }
}
