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
