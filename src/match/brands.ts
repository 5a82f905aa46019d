// Brands as agencies and retailers write them: corporate forms dropped, multi-brand strings split, related brands found.
import { editDistance } from '../filters/edit-distance.js';
import { brandKey } from './match-keys.js';

/** Legal forms and firm words that say nothing about the brand ("Baby Jogger LLC", "Sunbeam Products"). */
const FIRM_WORDS = new Set(
  `llc inc incorporated ltd limited corp corporation co company cie sas sasu sa sarl eurl snc gmbh mbh ag kg
  ohg ug bv nv plc srl spa ab oy as aps pty lp llp ulc products brands brand group groupe holding holdings
  industries enterprises international intl manufacturing`.split(/\s+/),
);
/** Firm words a name may start with: "The Boppy Company", "Ets Martin". */
const LEADING_FIRM_WORDS = new Set(['the', 'ets', 'etablissements', 'societe', 'ste', 'firma']);
/** Words a shared token of two brands cannot rest on: places, trades, and what every brand calls itself. */
const WEAK_TOKENS = new Set(
  `the and et und les des der die das von de la le of usa us america american france french deutschland germany
  europe uk home kids kid baby bebe toys toy jouets foods food nutrition sports sport outdoor world global
  new best good natural bio organic classic original selection premium gourmet maison house market store
  shop online direct distribution trading import export retail`.split(/\s+/),
);

/** A brand's key without corporate forms: "The Boppy Company" is "boppy"; never empties a brand made only of them. */
export function brandCore(raw: string): string {
  const words = brandKey(raw)
    .split(' ')
    .filter((w) => w !== '');
  let start = 0;
  let end = words.length;
  // "Ambriola Co., Inc., The": the FDA's firm names put a leading "The" last.
  if (end > 1 && words[end - 1] === 'the') end--;
  while (end - start > 1 && FIRM_WORDS.has(words[end - 1] as string)) end--;
  while (end - start > 1 && LEADING_FIRM_WORDS.has(words[start] as string)) start++;
  // "Gmbh & Co KG" leaves a trailing "co" once "kg" is gone: the loop above takes it too.
  return words.slice(start, end).join(' ');
}

/**
 * The brands a brand field names: `strong`, the whole and, for "TRIBORD - DECATHLON", "AUCHAN/POUCE", "A, B"
 * or "A | B", each part; `weak`, the halves of "A & B", "A et B", "A and B", which are often one brand
 * ("Cat & Jack", "Jack & Jones"): a weak part only ever equals a strong part of the other side, so two
 * "&" brands never meet through a shared half.
 */
export function brandParts(raw: string): { strong: string[]; weak: string[] } {
  const strong = new Set<string>();
  const weak = new Set<string>();
  const add = (set: Set<string>, s: string) => {
    const core = brandCore(s);
    if (core !== '') set.add(core);
  };
  add(strong, raw);
  for (const part of raw.split(/\s+-\s+|\s*[/|;,+]\s*|\s+–\s+/)) {
    add(strong, part);
    for (const sub of part.split(/\s*&\s*|\s+(?:et|and|und)\s+/i)) add(weak, sub);
  }
  for (const s of strong) weak.delete(s);
  return { strong: [...strong], weak: [...weak] };
}

/** A word of `min` characters or more that says which brand it is: no digits alone, no place, trade or firm word. */
const telling = (w: string, min: number) =>
  w.length >= min && !/^\d+$/.test(w) && !WEAK_TOKENS.has(w) && !FIRM_WORDS.has(w);

/**
 * The words of a brand core that can tie two brands on their own, each also without a plural `s`, and for a core of
 * several words, the words joined: "Freshprep" is "Fresh Prep", "Kelloggs" is "Kellogg", "Sainsburys" is "Sainsbury s".
 * Both matchers find a brand's candidates by these words, so a form listed here is one relateBrands is asked about.
 */
export function distinctiveBrandTokens(core: string): string[] {
  const words = core.split(' ').filter((w) => telling(w, 3));
  const forms = new Set(words);
  for (const w of words) {
    const one = singular(w);
    if (one !== w && telling(one, 3)) forms.add(one);
  }
  if (core.includes(' ')) {
    const joined = core.replaceAll(' ', '');
    if (telling(joined, 3)) forms.add(joined);
  }
  return [...forms];
}

const joinedForm = (core: string) => core.replaceAll(' ', '');

/** Each word of 5 letters or more without a plural `s` ("organics", "kelloggs"; never "swiss", "mars"). */
function singular(core: string): string {
  return core.includes('s') ? core.replace(/\b(\p{L}{3,}[^s\s])s\b/gu, '$1') : core;
}

/** How two brands were found to be the same. */
export type BrandRelation = 'same' | 'spelled' | 'contained' | 'shared-word' | 'in-title' | 'in-name' | 'alias';

function containsWords(outer: string, inner: string): boolean {
  return ` ${outer} `.includes(` ${inner} `);
}

/**
 * How brand core `a` relates to brand core `b`: equal, one inside the other at word boundaries
 * ("carrefour" in "carrefour selection") or word by word in order ("foster farms" in "foster poultry farms"), or
 * sharing a distinctive word; undefined when unrelated.
 */
export function relateBrands(a: string, b: string): BrandRelation | undefined {
  if (a === '' || b === '') return undefined;
  if (a === b || joinedForm(a) === joinedForm(b)) return 'same';
  // Agencies write a brand's plural as they please: "Miski Organic" in a title, "Miski Organics" in the summary.
  const sa = singular(a);
  const sb = singular(b);
  if (sa === sb || joinedForm(sa) === joinedForm(sb)) return 'same';
  if (spelledAlike(sa, sb)) return 'spelled';
  const [short, long] = sa.length <= sb.length ? [sa, sb] : [sb, sa];
  if (distinctiveBrandTokens(short).length > 0 && (containsWords(long, short) || inOrder(short, long)))
    return 'contained';
  const other = new Set(distinctiveBrandTokens(b));
  // A shared word of 4 letters or more: 3-letter words ("sun", "top") tie too many unrelated brands.
  if (distinctiveBrandTokens(a).some((w) => w.length >= 4 && other.has(w))) return 'shared-word';
  return undefined;
}

/** A brand word this long or longer may be misspelt by one letter and still be the brand. */
const SPELLED_MIN = 7;

/**
 * The same words but one, which one edit turns into the other (a letter changed, added or dropped, or two neighbours
 * swapped), both of SPELLED_MIN letters or more: an agency's "Sabrositos Hondurenos" for the label's "Sabrocitos
 * Hondurenos". Only asked of brands that share a distinctive word (the candidates are found by one), so a one-word
 * brand is never taken for a one-letter neighbour.
 */
function spelledAlike(a: string, b: string): boolean {
  const wa = a.split(' ');
  const wb = b.split(' ');
  if (wa.length !== wb.length || wa.length < 2) return false;
  const at = wa.findIndex((w, i) => w !== wb[i]);
  const [x, y] = [wa[at] ?? '', wb[at] ?? ''];
  if (at < 0 || wa.some((w, i) => i > at && w !== wb[i])) return false;
  return x.length >= SPELLED_MIN && y.length >= SPELLED_MIN && !/\d/.test(x + y) && editDistance(x, y) === 1;
}

/**
 * A brand of two or more distinctive words that the other writes in order from its first, with words between: "Foster
 * Farms" in "Foster Poultry Farms, LLC". One shared word ("Sulu Nutrition", "Sulu Organics") stays a hint.
 */
function inOrder(short: string, long: string): boolean {
  const a = short.split(' ');
  const b = long.split(' ');
  if (a[0] !== b[0] || distinctiveBrandTokens(short).length < 2) return false;
  let j = 0;
  for (const w of b) if (w === a[j]) j++;
  return j === a.length;
}

/** Words after which a notice's title names what was recalled: "Target Recalls Cat & Jack…". */
const RECALL_VERB =
  /^(.+?)\s+(?:recalls?|is recalling|expands recall(?:\s+(?:of|for))?|announces recall(?:\s+of)?|rappelle|ruft|retira|retiran)\s+(.+)$/i;

/**
 * The firm a title says recalls, and its words after the verb: "Target Recalls Cat & Jack Toddler Boots", "Starway
 * International Group LLC Expands Recall for …". Undefined when the title names no firm that way.
 */
export function titleFirm(title: string): { firm: string; text: string } | undefined {
  // A title is a line: its first 300 characters name the firm and the brand (a hostile one may be huge).
  const m = RECALL_VERB.exec(title.slice(0, 300));
  return m ? { firm: m[1] as string, text: m[2] as string } : undefined;
}

/** A title that names no recalling firm: "<brand and product> Recalled" (or "Recall Expanded"). */
const RECALLED = /^(.+?)\s+(?:recalled|recall expanded|recall extended)\b/i;
/** An agency's alert that names the product after it: "FSIS Issues Public Health Alert for Kirkland Signature … Ham". */
const ALERT_FOR = /\bpublic health alert for\s+(.+)$/i;

/**
 * Where a title stops naming what was recalled: the reason, and where it was sold ("… Chili Sold at Walmart Due to
 * …"): a retailer or a distributor named there is not the product's brand.
 */
const TITLE_TAIL =
  /(?:\s+(?:due to|because of|sold (?:at|by|on|in|through|exclusively|online|nationwide)|distributed (?:by|to|at)|imported by)\b|\s*;).*$/is;

/**
 * The title's words after the recalling firm when the brand field names that firm (or nothing): the CPSC
 * writes "Target Recalls Cat & Jack Toddler Boots", brand "Target". Undefined when the title names no firm
 * or the brand field is another brand than the firm.
 */
export function titleBrandText(title: string, brandField: string): string | undefined {
  const m = titleFirm(title);
  if (!m) {
    // "Bearlala Baby Loungers Recalled Due to…; Sold on Walmart.com by Nuoxuann": no firm in the title, whose
    // words before "Recalled" (or after an alert's "for") name the product and its brand; the brand field names the
    // seller, importer or establishment.
    const head = title.slice(0, 300);
    const passive = RECALLED.exec(head) ?? ALERT_FOR.exec(head);
    return passive ? brandKey((passive[1] as string).replace(TITLE_TAIL, '')) : undefined;
  }
  const firm = brandCore(m.firm);
  const brand = brandCore(brandField);
  if (brand !== '' && relateBrands(brand, firm) === undefined) return undefined;
  return brandKey(m.text.replace(TITLE_TAIL, ''));
}

/** How much of a notice's text is searched for a catalogue brand: a hostile field may be huge. */
const NOTICE_TEXT_LIMIT = 4000;

/**
 * The notice's own words about the product (title, product name, description), brandKey'd, each field cut to
 * its first 4,000 characters. A catalogue brand written there ("Curtis International Expands Recall of
 * Frigidaire-brand Minifridges", "ANNQUAN Brand Power Strips Recalled") names the product's brand even when
 * the brand field names the recalling firm or the importer.
 */
export function noticeBrandText(recall: Record<string, unknown>): { field: string; text: string }[] {
  const out: { field: string; text: string }[] = [];
  for (const field of ['alert_title', 'product_name', 'product_description']) {
    const v = recall[field];
    if (typeof v === 'string' && v !== '') out.push({ field, text: brandKey(v.slice(0, NOTICE_TEXT_LIMIT)) });
  }
  return out;
}

/**
 * Whether a catalogue brand core is written in a notice's brandKey'd text, at word boundaries. Used only beside an
 * equal model number, so a two-letter brand counts ("RH Recalls Byron Tables"), but never one made only of
 * place, trade or firm words, or of digits.
 */
export function brandWrittenIn(core: string, text: string): boolean {
  return core.split(' ').some((w) => telling(w, 2)) && containsWords(text, core);
}

/**
 * The initials of a brand core of 2 to 4 telling words ("restoration hardware" is "rh"); undefined for one word, or
 * when a place, trade or range word is among them ("Royal Home" is not "RH").
 */
export function brandInitials(core: string): string | undefined {
  const words = core.split(' ').filter((w) => w !== '');
  if (words.some((w) => WEAK_TOKENS.has(w) || FIRM_WORDS.has(w))) return undefined;
  if (words.length < 2 || words.length > 4 || words.some((w) => /^\d/.test(w))) return undefined;
  return words.map((w) => w[0]).join('');
}

/** Whether a catalogue brand core is written in the title's text, at word boundaries, as its words or joined. */
export function brandInTitle(core: string, titleText: string): boolean {
  if (distinctiveBrandTokens(core).length === 0) return false;
  if (core.includes(' ')) return containsWords(titleText, core) || containsWords(titleText, joinedForm(core));
  return containsWords(titleText, core) || writtenInTwo(titleText, core);
}

/** A one-word brand the text writes as two words ("QDelicia" as "Q’Delicia", "Freshprep" as "Fresh Prep"). */
function writtenInTwo(text: string, core: string): boolean {
  const words = text.split(' ');
  for (let i = 0; i + 1 < words.length; i++) if (`${words[i]}${words[i + 1]}` === core) return true;
  return false;
}

/**
 * The words a notice's brandKey'd text is searched for brands by: its words, then each two neighbours written as one,
 * which find a catalogue brand written joined ("qdelicia" in "q delicia de empanada").
 */
export function brandLookupWords(text: string): string[] {
  const words = text.split(' ');
  const pairs = words.slice(1).map((w, i) => `${words[i]}${w}`);
  return [...new Set([...words, ...pairs])];
}

/** How a notice names the brand in its prose when its brand field names the firm (or is empty, as the FDA's). */
const BRAND_PHRASES = [
  // "sold under the H-E-B brand", "packaged under the brand name Great Value", "sous la marque Carrefour".
  /\b(?:sold|marketed|distributed|packaged|packed|labell?ed|produced|offered)\s+under\s+(?:the\s+)?(?:brand\s+(?:names?\s+)?|label\s+)?["“]?([^,.;:"”()\n]{2,40}?)["”]?\s+(?:brand|label|trade\s?name)s?\b/gi,
  /\bunder\s+the\s+(?:brand|label|trade)\s*(?:names?)?\s*[:"“]?\s*([^,.;:"”()\n]{2,40})/gi,
  /\bsous\s+la\s+marque\s+["“«]?\s*([^,.;:"”»()\n]{2,40})/gi,
  /\bunter\s+der\s+marke\s+["“„]?([^,.;:"”“()\n]{2,40})/gi,
  // "Distributed by Sainsbury's Supermarkets Ltd", "Manufactured for Trader Joe's": the firm whose brand it is.
  /\b(?:[Dd]istributed|[Mm]anufactured|[Pp]acked|[Pp]ackaged|[Pp]roduced|[Mm]ade|[Ii]mported|[Mm]arketed)\s+(?:for|by)\s*:?\s+(\p{Lu}[^,.;:()\n]{1,60})/gu,
  /(?:[Dd]istribué|[Ff]abriqué|[Cc]onditionné|[Ii]mporté)e?s?\s+(?:par|pour)\s+(\p{Lu}[^,.;:()\n]{1,60})/gu,
];
/** Where a brand phrase stops: "Trader Joe's of Monrovia", "H-E-B in Texas". */
const PHRASE_END = /\s+(?:of|in|at|from|and sold|which|that|who|located|based|with|through|to)\s+.*$/i;

/** The brands a notice's prose names for its product: "sold under the … brand", "Distributed by …", the firm. */
export function brandsInText(recall: Record<string, unknown>): string[] {
  const found = new Set<string>();
  for (const field of [
    'alert_title',
    'product_name',
    'product_description',
    'packaging_description',
    'alert_summary',
  ]) {
    const v = recall[field];
    if (typeof v !== 'string' || v === '') continue;
    const text = v.slice(0, NOTICE_TEXT_LIMIT);
    for (const re of BRAND_PHRASES)
      for (const m of text.matchAll(re)) {
        const core = brandCore((m[1] as string).replace(PHRASE_END, ''));
        if (core !== '' && distinctiveBrandTokens(core).length > 0) found.add(core);
      }
  }
  return [...found];
}
