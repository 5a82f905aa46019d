// The units of a pack size, abbreviated and spelt out, shared by the name words (which drop them) and the pack sizes (which read them).

/** Numbers a label spells out ("two liter", "twelve ounces"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
};

/** Units spelt out, English, French, Spanish and German, as a regular expression's alternatives. */
export const SPELT_UNITS =
  'fluid ounces?|ounces?|onzas?|pounds?|libras?|grams?|grammes?|gramos?|gramm|kilos?|kilograms?|kilogrammes?|kilogramos?|millilit(?:er|re)s?|mililitros?|lit(?:er|re)s?|litros?|quarts?|pints?|gallons?';

/**
 * Mass and volume units as labels abbreviate them, longest first where one begins another ("fl oz" before "oz"): the
 * one list both readers build on, so a unit pack sizes read is never a name word ("1.5 qt").
 */
export const SIZE_ABBREVIATIONS = [
  'fl oz',
  'ozs',
  'oz',
  'lbs',
  'lb',
  'mg',
  'gr',
  'g',
  'kgs',
  'kg',
  'ml',
  'cl',
  'dl',
  'ltr',
  'lt',
  'l',
  'qt',
  'pt',
  'gal',
] as const;

/** A number's "#" (FSIS and the meat trade write "Net Wt. 5#"), never an item's ("Item# 19927", "#10 can"). */
const POUND_SIGN = /(\d)\s?#(?![\p{L}\p{N}])/gu;

/** The text with pounds written "#" as "lb", so that both readers take "5#" for the size "5 lb". */
export function poundsWritten(text: string): string {
  return text.includes('#') ? text.replace(POUND_SIGN, '$1 lb') : text;
}
