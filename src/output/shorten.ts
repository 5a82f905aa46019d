// Cutting untrusted text to a length for display: by code points, so an emoji or any astral character is never halved.

/** `text`, or its first `max - 1` code points and `…` when it is longer than `max` code points. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
