// Decimal digits of every script as ASCII: a lot, a barcode or a date written in Arabic-Indic (١٢٣), Persian (۱۲۳),
// Devanagari (१२३), Thai (๑๒๓) or full-width (１２３) digits is the same code as in 0-9.

/** A decimal digit (\p{Nd}) of the Basic Multilingual Plane other than 0-9: one UTF-16 unit, as an ASCII digit is. */
const OTHER_DIGIT = /(?=\p{Nd})[\u0080-\uffff]/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const values = new Map<string, string>();

/**
 * A decimal digit's ASCII digit. Unicode assigns decimal digits only in runs of ten, 0 to 9 in order (its stability
 * policy): the value is how many digits stand right before it in the code chart, modulo ten (the mathematical digits
 * are five such runs back to back). Found once each: digits seen are few, and a catalogue repeats them.
 */
export function digitValue(digit: string): string {
  let value = values.get(digit);
  if (value !== undefined) return value;
  let before = 0;
  for (let cp = (digit.codePointAt(0) as number) - 1; /\p{Nd}/u.test(String.fromCodePoint(cp)); cp--) before++;
  value = String(before % 10);
  values.set(digit, value);
  return value;
}

/**
 * `text` with every such digit as its ASCII digit, its length unchanged (a reader quotes evidence by position). Digits
 * outside the BMP (mathematical 𝟏, two units each) are left as they are: a reader that takes only 0-9 leaves them unread.
 */
export function asciiDigits(text: string): string {
  return NON_ASCII.test(text) ? text.replace(OTHER_DIGIT, digitValue) : text;
}
