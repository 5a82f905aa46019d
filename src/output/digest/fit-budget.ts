// What the e-mail parts show of a list within a byte budget: the items in order while they fit, rendered only as far as needed.

/**
 * The longest run of `items`, from the first, whose rendered UTF-8 bytes (plus `sep` each, the joining newline)
 * add up to at most `room`; `used` is what they take. Items past the first that does not fit are never rendered.
 */
export function fitting<T>(
  items: readonly T[],
  render: (item: T) => string,
  room: number,
  sep = 0,
): { shown: string[]; used: number } {
  const shown: string[] = [];
  let used = 0;
  for (const item of items) {
    const text = render(item);
    const n = Buffer.byteLength(text) + sep;
    if (used + n > room) break;
    shown.push(text);
    used += n;
  }
  return { shown, used };
}

/**
 * Rows within `room` where some must show whatever they take (your products' matches, `kept`); each other row
 * shows while it fits, and one too big is skipped, not the end: a smaller one after it may still fit. `left`
 * counts those skipped, `used` what the shown take (beyond `room` when the kept ones do).
 */
export function fittingKept<T>(
  items: readonly T[],
  render: (item: T) => string,
  kept: (item: T) => boolean,
  room: number,
  sep = 0,
): { shown: string[]; used: number; left: number } {
  const shown: string[] = [];
  let used = 0;
  let left = 0;
  for (const item of items) {
    const text = render(item);
    const n = Buffer.byteLength(text) + sep;
    if (!kept(item) && used + n > room) {
      left++;
      continue;
    }
    shown.push(text);
    used += n;
  }
  return { shown, used, left };
}

/**
 * Lists one after another within `room`, each as `fitting` does. Once a list is cut the lists after it show
 * nothing (an updated recall shown while new ones are hidden would read as if the new list were complete);
 * `left` counts every item not shown, for the closing note.
 */
export function fittingLists<T>(
  lists: readonly (readonly T[])[],
  render: (item: T) => string,
  room: number,
  sep = 0,
): { shown: string[][]; used: number; left: number } {
  const shown: string[][] = [];
  let used = 0;
  let left = 0;
  for (const list of lists) {
    const fit = left > 0 ? { shown: [], used: 0 } : fitting(list, render, room - used, sep);
    shown.push(fit.shown);
    used += fit.used;
    left += list.length - fit.shown.length;
  }
  return { shown, used, left };
}
