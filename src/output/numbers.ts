// Counts as people read them: digits grouped by thousands with commas, as en-US writes them.

/**
 * `1234567` → `1,234,567`. Written by hand: the first toLocaleString of a run loads ICU's locale data,
 * about 15 ms of start-up for one summary line. Whole numbers only; a fraction keeps its digits as they are.
 */
export function groupDigits(value: number): string {
  const [whole, fraction] = String(value).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** `3 recalls`, `1 recall`, `1,200 recalls`. */
export function counted(count: number, one: string, many: string): string {
  return `${groupDigits(count)} ${count === 1 ? one : many}`;
}
