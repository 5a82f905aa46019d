// The words that say which of a brand's products a name is, read from the name as written: name words leave out
// colours, sizes, ages and "sans" as too common to tie two products (match-keys.ts GENERIC), and single digits and
// counts as no words at all, yet "white" chocolate is not "milk" chocolate, nor "Stage 1" formula "Stage 2".
import { brandKey } from './match-keys.js';

/** Groups of which a product is one member: naming two different ones, two names are two products. */
const GROUPS = [
  'dark milk white noir lait blanc zartbitter vollmilch weiss negro leche blanco',
  'black white red blue green pink grey gray yellow purple brown navy beige silver gold noir blanc rouge bleu vert rose gris jaune violet marron schwarz weiss rot blau grun gelb rosa negro blanco rojo azul verde amarillo',
  'small medium large xl xxl petit petite moyen grand grande klein mittel gross pequeno mediano',
  'infant infants toddler toddlers kid kids child children childrens junior adult adults baby bebe enfant enfants adulte',
  'men mens man women womens woman boy boys girl girls homme hommes femme femmes herren damen',
].map((g) => new Set(g.split(' ')));
const MEMBERS = new Set(GROUPS.flatMap((g) => [...g]));

/** A variant named with its number: "Stage 1", "Size 2", "SPF 30", "60 ct", "Step 3", "Gen 2". */
const NUMBERED =
  /\b(stage|size|step|spf|gen|generation|etape|taille|stufe|phase|level)\s*(\d{1,3})\b|\b(\d{1,4})\s*(ct|count|cts|caps|capsules|tablets|softgels|gummies)\b/g;

/** A name's variant words: group members (`white`, `large`, `toddler`), `sans`, and numbered ones (`stage 1`, `ct 60`). */
export function variantWords(name: string): Set<string> {
  const key = brandKey(name);
  const out = new Set<string>();
  for (const word of key.split(' ')) {
    const stem = word.length > 3 && word.endsWith('s') && !MEMBERS.has(word) ? word.slice(0, -1) : word;
    if (MEMBERS.has(stem)) out.add(stem);
    else if (word === 'sans') out.add(word);
  }
  for (const m of key.matchAll(NUMBERED)) {
    if (m[1] !== undefined) out.add(`${normalLabel(m[1])} ${Number(m[2])}`);
    else out.add(`ct ${Number(m[3])}`);
  }
  return out;
}

const normalLabel = (label: string) =>
  ({ generation: 'gen', etape: 'stage', stufe: 'stage', phase: 'stage', taille: 'size', level: 'stage' })[label] ??
  label;

/**
 * The variant that makes two names of one brand two products: a group member each, different (`milk/white`); `sans`
 * on one side only; or one label with two numbers (`stage 1/stage 2`, `ct 60/ct 100`). Undefined when none does.
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
