// Which filter values matched nothing: a mistyped `--severity seroius` is said on stderr, naming the values seen.
import { escapeUnseen, hasUnseen } from '../output/control-escapes.js';
import { groupDigits } from '../output/numbers.js';
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

/**
 * A value seen as the warning names it, never like another: one holding a character a terminal would not show
 * (`serious` and a zero-width space) is quoted, those characters escaped (`"serious\u200b"`), as stats labels it.
 */
function seenLabel(value: string): string {
  if (!hasUnseen(value) && !value.startsWith('"')) return value;
  return escapeUnseen(JSON.stringify(value));
}

/** `--severity seroius matched no recall of the 1,200 looked at; values seen: high, low, serious` */
export function unmatchedMessage(u: UnmatchedValue, looked: number, where = 'looked at'): string {
  const known = u.name !== 'country' || countryCode(u.value) !== undefined;
  const head = `--${u.name} ${u.value} matched no recall of the ${groupDigits(looked)} ${where}${known ? '' : `; ${u.value} is no country this tool knows (an ISO code such as DE, or a name such as Germany)`}`;
  if (u.seen === undefined) return head;
  // A blank value is none: no filter value names it.
  const seen = u.seen.filter((v) => fold(v) !== '');
  if (seen.length === 0) return `${head}; none of them has a ${FILTER_FIELDS[u.name].field}`;
  const more = seen.length > SHOWN ? `, … (${seen.length - SHOWN} more)` : '';
  return `${head}; values seen: ${seen.slice(0, SHOWN).map(seenLabel).join(', ')}${more}`;
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

/** Fields whose values seen are named folded, as stats and digest show them; the others in their most common spelling. */
const NAMED_FOLDED: ReadonlySet<FilterName> = new Set(['severity', 'status']);
/** Spellings counted per value seen, for its most common one. */
const SPELLINGS = 16;

/** A value seen: how many records held it, and its spellings as written (up to SPELLINGS) with their counts. */
interface Seen {
  count: number;
  spellings: Map<string, number>;
}

/** UTF-8 byte order, as stats breaks ties. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A value seen as stats labels it: the folded value, or its most common spelling (ties: the first by UTF-8 bytes). */
function labelOf(name: FilterName, folded: string, seen: Seen): string {
  if (NAMED_FOLDED.has(name)) return folded;
  const tidied = new Map<string, number>();
  for (const [spelling, n] of seen.spellings) {
    const tidy = spelling.replace(/\s+/g, ' ').trim();
    tidied.set(tidy, (tidied.get(tidy) ?? 0) + n);
  }
  let best: [string, number] | undefined;
  for (const entry of tidied)
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && byBytes(entry[0], best[0]) < 0)) best = entry;
  return best?.[0] ?? folded;
}

/**
 * Watches the records a filter is applied to. `keep` is the filter's predicate; on the way it notes the
 * values each list field held (each once per record, blanks left out: no filter value names one) and which text
 * filters found something, so that a value that matched nothing can be named afterwards, each field on its own (a
 * typo in one is found whatever the others do), with the values seen as `query` names them from the archive's counts.
 * Each field's text is folded once per record: the notes and the verdict come from the same pass.
 */
export class FilterCoverage {
  readonly keep: (record: Record<string, unknown>) => boolean;
  #looked = 0;
  readonly #lists = new Map<FilterName, { wanted: Set<string>; seen: Map<string, Seen> }>();
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
      const values = stringValues(record[FILTER_FIELDS[name].field as string]);
      const once = values.length > 1 ? new Set<string>() : undefined;
      for (const shown of values) {
        const folded = fold(shown);
        if (wanted.has(folded)) found = true;
        if (folded === '' || once?.has(folded)) continue;
        once?.add(folded);
        let entry = seen.get(folded);
        if (!entry) {
          if (seen.size >= KEPT) continue;
          entry = { count: 0, spellings: new Map() };
          seen.set(folded, entry);
        }
        entry.count++;
        // Counted as written; whitespace is tidied once, when the label is chosen (labelOf), not per record.
        const had = entry.spellings.get(shown);
        if (had !== undefined || entry.spellings.size < SPELLINGS) entry.spellings.set(shown, (had ?? 0) + 1);
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
      seen[name] = [...values]
        .map(([folded, entry]) => ({ label: labelOf(name, folded, entry), count: entry.count }))
        .sort((a, b) => b.count - a.count || byBytes(a.label, b.label))
        .map((v) => v.label);
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
