// A notice's scope as data: lots, lot ranges, dates and date ranges with their kind, "all", and the scope text not understood.
import type { DateKind } from './scope-words.js';

export type { DateKind } from './scope-words.js';

/** Where an item was read and the notice's words that say it. */
export interface Found {
  field: string;
  text: string;
  /** The GTIN (14 digits) of the identifier line the item was read from, when it starts with one. */
  gtin14?: string;
  /**
   * Read under a label the reader understands, in a list it read to its end: only such items can prove a row out of
   * scope. An unlabelled list, a bare "code", or a date far from its label can put a row in scope, never out.
   */
  sure: boolean;
  /** A code the notice's prose names outside any list: a row's lot equal to it is never excluded, nor claimed in scope. */
  mention?: boolean;
  /** A mention that reads as something else (a quantity, a year, a barcode): kept for safety, never listed. */
  quiet?: boolean;
}

/** Days are ISO yyyy-mm-dd; an open bound ("08/25/14 or prior") runs to OPEN_START or OPEN_END. */
export const OPEN_START = '0000-01-01';
export const OPEN_END = '9999-12-31';

export type ScopeItem =
  | (Found & { kind: 'lot'; lot: string })
  | (Found & { kind: 'lot-range'; from: string; to: string })
  | (Found & { kind: 'all-lots' })
  | (Found & { kind: 'date'; dateKind: DateKind; from: string; to: string })
  /** Scope-looking text the reader could not read whole: while a notice has one, none of its rows is excluded. */
  | (Found & { kind: 'unread'; why: string });

/**
 * Lots compare without case, accents, spaces, dashes (of any kind: hyphens, the minus sign, the hyphen bullet), dots,
 * slashes or underscores.
 */
export function lotKey(raw: string): string {
  return raw
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[\s\p{Pd}\u2212\u2043./_]+/gu, '');
}

/**
 * The end of "first-last" read as a range of numbered lots: as written when as long as the start ("2400-2405"), the
 * start's head with the end written short when that is 1-3 digits ("12340-50", "12344/45"); undefined when the end so
 * read does not come after the start (then it is no range: "07192023-4502" is one code).
 */
export function numberedRangeEnd(first: string, last: string): string | undefined {
  const end =
    last.length === first.length
      ? last
      : last.length < first.length && last.length <= 3
        ? first.slice(0, first.length - last.length) + last
        : undefined;
  return end !== undefined && Number(end) > Number(first) ? end : undefined;
}

/** One item in words, for `--explain`: "lot v028", "lots 1001 to 1050", "best-before up to 2025-06-30". */
export function describeItem(item: ScopeItem): string {
  switch (item.kind) {
    case 'lot':
      return `lot ${item.lot}`;
    case 'lot-range':
      return `lots ${item.from} to ${item.to}`;
    case 'all-lots':
      return 'all lots';
    case 'unread':
      return `not read (${item.why}): "${item.text}"`;
    case 'date': {
      const span =
        item.from === OPEN_START
          ? `up to ${item.to}`
          : item.to === OPEN_END
            ? `from ${item.from}`
            : item.from === item.to
              ? item.from
              : `${item.from} to ${item.to}`;
      return `${item.dateKind} ${span}${item.from.startsWith('--') ? ' (any year)' : ''}`;
    }
  }
}
