// The English words a Spanish notice's name stands for: FSIS publishes its alerts in Spanish too, a grocer's catalogue is in English.

/**
 * Spanish name words as nameTokens gives them (folded, a trailing s dropped) and the English words (space-separated)
 * a catalogue row writes for each, in the same form. The meats and forms of FSIS's alerts and the packs their bullets open with:
 * "Estuche plástico de 7.8-8 lb. (1 gal) que contiene …" is the English alert's "plastic tub containing …".
 */
const SPANISH: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    salchicha: 'sausage',
    pollo: 'chicken',
    res: 'beef',
    carne: 'meat',
    cerdo: 'pork',
    pavo: 'turkey',
    jamon: 'ham',
    tocino: 'bacon',
    tocineta: 'bacon',
    cordero: 'lamb',
    queso: 'cheese',
    huevo: 'egg',
    congelado: 'frozen',
    congelada: 'frozen',
    ahumado: 'smoked',
    ahumada: 'smoked',
    picante: 'spicy',
    molida: 'ground',
    molido: 'ground',
    estuche: 'tub',
    bandeja: 'tray',
    frasco: 'jar',
    bolsa: 'bag',
    lata: 'can',
    // FSIS writes "Caja de 32 oz." for a "32-oz. carton", and "cajas" for the cases and boxes of its English alerts.
    caja: 'carton box case',
  }).map(([spanish, english]) => [spanish, english.split(' ')]),
);

/**
 * The notice's (or one listed product's) name words with the English words of each Spanish one beside them. Only
 * ever added to what a row's name is covered by, never to the words a full name is checked against, so a row found
 * through a translation is at most `possible` (name-tier.ts).
 */
export function glossed(tokens: ReadonlySet<string>): ReadonlySet<string> {
  let out: Set<string> | undefined;
  for (const t of tokens) {
    // A Map: a notice's word is never looked up among an object's own names ("constructor").
    for (const english of SPANISH.get(t) ?? []) {
      if (tokens.has(english)) continue;
      out ??= new Set(tokens);
      out.add(english);
    }
  }
  return out ?? tokens;
}
