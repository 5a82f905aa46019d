// What the e-mail parts show of a list within a byte budget, counted as the part is sent: the items in order while they fit, rendered only as far as needed.

/**
 * Fewest bytes a quoted-printable line carries before its soft break (`=` CRLF): lines are 76 on the wire, and
 * an encoder keeps a character's `=XX` bytes together (up to 12 for a 4-byte character), so at least 63.
 */
const QP_LINE = 60;

/**
 * At least the bytes `text` takes as a quoted-printable MIME part (the e-mail's parts are sent so, or as 7bit when
 * plain ASCII in short lines, which is smaller): `=` and every byte outside printable ASCII as `=XX`, each line
 * ending as CRLF (a space before it encoded too), a soft line break per QP_LINE bytes. Over parts it adds up to at least
 * the whole's, so lists measured item by item never undercount.
 */
export function wireBytes(text: string): number {
  let n = 0;
  for (const byte of Buffer.from(text)) {
    if (byte === 0x0a) n += 4;
    else n += (byte >= 0x21 && byte <= 0x7e && byte !== 0x3d) || byte === 0x20 ? 1 : 3;
  }
  return n + 3 * Math.ceil(n / QP_LINE);
}

/**
 * A part rendered with `room` bytes for its lists, kept within `max` as sent: when the whole comes out larger (its
 * fixed lines took more than reckoned), rendered again with that much less room, until it fits or lists nothing.
 */
export function withinBudget(render: (room: number) => string, room: number, max: number): string {
  for (;;) {
    const out = render(room);
    const over = wireBytes(out) - max;
    if (over <= 0 || room <= 0) return out;
    room -= over;
  }
}

/**
 * The longest run of `items`, from the first, whose rendered bytes as sent (`wireBytes`, with `sep` after each, the
 * joining newline) add up to at most `room`; `used` is what they take. Items past the first that does not fit are
 * never rendered.
 */
export function fitting<T>(
  items: readonly T[],
  render: (item: T) => string,
  room: number,
  sep = '',
): { shown: string[]; used: number } {
  const shown: string[] = [];
  let used = 0;
  for (const item of items) {
    const text = render(item);
    const n = wireBytes(text + sep);
    if (used + n > room) break;
    shown.push(text);
    used += n;
  }
  return { shown, used };
}

/**
 * Rows within `room`, in order: each shows while it fits, and one too big is skipped, not the end: a smaller one
 * after it may still fit. `left` holds those skipped (the note counts them by level), `used` what the shown take.
 */
export function fittingSkip<T>(
  items: readonly T[],
  render: (item: T) => string,
  room: number,
  sep = '',
): { shown: string[]; used: number; left: T[] } {
  const shown: string[] = [];
  let used = 0;
  const left: T[] = [];
  for (const item of items) {
    const text = render(item);
    const n = wireBytes(text + sep);
    if (used + n > room) {
      left.push(item);
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
  sep = '',
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
