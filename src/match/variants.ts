// The words that say which of a brand's products a name is, read from the name as written: name words leave out
// colours, sizes, ages and "sans" as too common to tie two products (match-keys.ts GENERIC), and single digits and
// counts as no words at all, yet "white" chocolate is not "milk" chocolate, nor "Stage 1" formula "Stage 2".
import { brandKey } from './match-keys.js';

/**
 * One word for each way of writing the same variant: plurals and possessives, British and American spellings, and
 * the French, German and Spanish words (a notice in one language, a catalogue in another).
 */
const SAME: Record<string, string> = Object.fromEntries(
  (
    'noir:dark zartbitter:dark negro:dark lait:milk vollmilch:milk leche:milk blanc:white weiss:white blanco:white ' +
    'grey:gray gris:gray rouge:red rot:red rojo:red bleu:blue blau:blue azul:blue vert:green grun:green verde:green ' +
    'rose:pink rosa:pink jaune:yellow gelb:yellow amarillo:yellow schwarz:black marron:brown ' +
    'petit:small petite:small klein:small pequeno:small moyen:medium mittel:medium mediano:medium grand:large ' +
    'grande:large gross:large infants:infant baby:infant babies:infant bebe:infant toddlers:toddler kids:kid ' +
    'child:kid children:kid childrens:kid enfant:kid enfants:kid adults:adult adulte:adult mens:men man:men ' +
    'homme:men hommes:men herren:men womens:women woman:women femme:women femmes:women damen:women boys:boy girls:girl'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** Groups of which a product is one member: naming two different ones, two names are two products. */
const GROUPS = [
  'dark milk white',
  'black white red blue green pink gray yellow purple brown navy beige silver gold',
  'small medium large xl xxl',
  'infant toddler kid junior adult',
  'men women boy girl',
].map((g) => new Set(g.split(' ')));
const MEMBERS = new Set(GROUPS.flatMap((g) => [...g]));

/**
 * A variant named with its numbers: "Stage 1", "Size 2", "SPF 30", "60 ct", "Step 3", "Gen 2", "6-in-1", "10-piece",
 * "3-speed"; a list or range after the label ("Sizes 3, 4 and 5", "Size 3-7") names each of them.
 */
const NUMBERED =
  /\b(stage|size|step|spf|gen|generation|etape|taille|stufe|phase|level)s?\s*(\d{1,3}(?:\s*(?:-|to|through|,|and|&|or|\/)\s*\d{1,3})*)\b|\b(\d{1,4})\s*(ct|count|cts|caps|capsules|tablets|softgels|gummies)\b|\b(\d{1,2})\s*-?\s*(in\s*-?\s*(?:1|one)|pieces?|pcs?|speeds?)\b/g;

/** The label a number stands after (`ct 60`, `in1 6`, `piece 3`), for the kinds written number first. */
const countLabel = (word: string) =>
  /^in/.test(word) ? 'in1' : /^(piece|pc)/.test(word) ? 'piece' : /^speed/.test(word) ? 'speed' : 'ct';

/** "3", "3, 4 and 5", "3-7": each number named (a range of at most 50). */
function numbersFrom(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(/\s*(?:,|and|&|or|\/)\s*/)) {
    const range = /^(\d+)\s*(?:-|to|through)\s*(\d+)$/.exec(part);
    if (range && Number(range[2]) >= Number(range[1]) && Number(range[2]) - Number(range[1]) <= 50)
      for (let n = Number(range[1]); n <= Number(range[2]); n++) out.push(n);
    else out.push(...(part.match(/\d+/g) ?? []).map(Number));
  }
  return out;
}

const normalLabel = (label: string) =>
  ({ generation: 'gen', etape: 'stage', stufe: 'stage', phase: 'stage', taille: 'size', level: 'stage' })[label] ??
  label;

/** A name's variant words: group members (`white`, `large`, `toddler`), `sans`, and numbered ones (`stage 1`, `ct 60`). */
export function variantWords(name: string): Set<string> {
  const key = brandKey(name);
  const out = new Set<string>();
  for (const word of key.split(' ')) {
    const same = SAME[word] ?? word;
    if (MEMBERS.has(same)) out.add(same);
    else if (word === 'sans') out.add(word);
  }
  // As written (a key loses the dash of "3-7" and the commas of "3, 4, 5").
  for (const m of name.toLowerCase().matchAll(NUMBERED)) {
    if (m[3] !== undefined) out.add(`ct ${Number(m[3])}`);
    else if (m[5] !== undefined) out.add(`${countLabel(m[6] as string)} ${Number(m[5])}`);
    else for (const n of numbersFrom(m[2] as string)) out.add(`${normalLabel(m[1] as string)} ${n}`);
  }
  return out;
}

/**
 * The variant that makes two names of one brand two products: a group member each, different (`milk/white`); `sans`
 * on one side only; or one label with numbers none of which the other names (`stage 1/stage 2`, `ct 60/ct 100`).
 * Undefined when none does.
 */
export function variantSibling(a: ReadonlySet<string>, b: ReadonlySet<string>): string | undefined {
  if (a.has('sans') !== b.has('sans')) return 'sans';
  for (const group of GROUPS) {
    const inA = [...a].filter((w) => group.has(w));
    const inB = [...b].filter((w) => group.has(w));
    if (inA.length > 0 && inB.length > 0 && !inA.some((w) => inB.includes(w))) return `${inA[0]}/${inB[0]}`;
  }
  const numbered = (s: ReadonlySet<string>) => [...s].filter((w) => w.includes(' '));
  for (const x of numbered(a)) {
    const label = x.slice(0, x.indexOf(' '));
    const others = numbered(b).filter((y) => y.startsWith(`${label} `));
    if (others.length > 0 && !others.includes(x) && !numbered(a).some((w) => others.includes(w)))
      return `${x}/${others[0]}`;
  }
  return undefined;
}
