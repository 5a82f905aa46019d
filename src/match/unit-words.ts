// Quantities written in words, shared by the name words (which drop them) and the pack sizes (which read them).

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
