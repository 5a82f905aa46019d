// Guards over a scope field after the reader: wording that says the scope runs wider than the items it read (a range or
// bound around a lot, a shorthand list, a week number, a list of days, a field cut at a store's limit), kept as unread.
import type { ScopeItem } from './scope-items.js';
import { lotKey, numberedRangeEnd, OPEN_END, OPEN_START } from './scope-items.js';
import { COMPLETE_LIST } from './scope-words.js';

/** A code: letters and digits, a digit among them, with single dashes, dots or slashes inside. */
const CODE = String.raw`[a-z]*\d[a-z0-9]*(?:[-./][a-z0-9]+)*`;
/** A lot label a range may repeat before its end ("Lot 1001 through Lot 1050", "lot n° 1050"). */
const LABEL = String.raw`(?:(?:lots?|batch(?:es)?|charge[n]?|lotes?|los|codes?|no|nr|n|numbers?|numeros?|#)\s*[.:#°]?\s*)*`;
/** Words and signs that join the two ends of a range. */
const JOIN = String.raw`(?:\s+(?:to|through(?:\s+to)?|thru|until|till|up\s+(?:to|until|till)(?:\s+and\s+including)?|au|a|bis(?:\s+(?:einschlie(?:ss|ß)lich|einschl\.?|inklusive|inkl\.?|und\s+mit))?|hasta(?:\s+(?:el|la))?|al|jusqu\s*'?\s*(?:au|a)(?:\s+la)?)\s+|\s*(?:[~→]|->|\.\.)\s*|\s+-\s+)`;
/** "1001 through Lot 1050", "du 1001 au 1050", "1001 ~ 1050"; "between 1001 and 1050". */
const RANGE = new RegExp(
  String.raw`(?<![a-z0-9])(?:(?:between|entre|zwischen)\s+${LABEL}(${CODE})\s+(?:and|et|und|y)\s+${LABEL}(${CODE})|(${CODE})${JOIN}${LABEL}(${CODE}))(?![a-z0-9])`,
  'g',
);
/** A lot label shortly before: what says a range or a bound is about lots, not sizes or ages ("3 to 5 years"). */
const LOT_NEAR = /\b(?:lot\w*|batch\w*|charge\w*|los|los-?n\w*|codes?|numeros? de lot\w*|serial\w*)\b/;
/** Words that leave a code's side open: "1234 and prior", "1001 und jünger", "1001 et suivants", "1001 y siguientes". */
const OPEN_SIDE = String.raw`(?:prior|earlier|before|below|lower|less|fewer|sooner|smaller|lesser|older|previous|preceding|later|after|above|higher|newer|greater|subsequent\w*|following|up(?:wards?)?|onwards?|thereafter|beyond|anterieur\w*|posterieur\w*|ulterieur\w*|suivant\w*|precedent\w*|inferieur\w*|superieur\w*|fruher\w*|frueher\w*|spater\w*|spaeter\w*|alter\w*|aelter\w*|junger\w*|juenger\w*|neuer\w*|hoher\w*|hoeher\w*|niedriger\w*|nachfolgend\w*|folgend\w*|vorherig\w*|vorhergehend\w*|anterior\w*|posterior\w*|siguiente\w*|precedente\w*|inferior\w*|superior\w*|mayor\w*|menor\w*|previo\w*)`;
/**
 * What may stand between "and" and its bound: "and all later lots", "y fechas anteriores", "und alle folgenden", "and any
 * earlier date", "and anything earlier", "and all expiry dates before" (a date's kind only before "dates": "and best
 * before 30/06" is a label).
 */
const FILLER = String.raw`(?:(?:all|any|anything|every|alle|tous|toutes|todos|todas|the|les|los|las|die|der)\s+)?(?:(?:expiry|expiration|best\s+before|best\s+by|use\s+by|sell\s+by)\s+(?=dates?\b))?(?:(?:dates?|lots?|batch(?:es)?|codes?|fechas|lotes|daten|chargen)\s+)?`;
/** "1234 and prior", "1001 and all later lots", "1001 onwards", "1001+": an open bound after a code. */
const BOUND = new RegExp(
  String.raw`(?<![a-z0-9])(${CODE})\s*,?\s*(?:(?:and|or|&|et|ou|und|oder|y|o)\s+${FILLER}${OPEN_SIDE}\b|onwards?\b|\+(?![a-z0-9]))`,
  'g',
);
/** "before 1001", "> 1001", "≤ 1001": an open bound before a code (a date there is the reader's). */
const BOUND_BEFORE = new RegExp(
  String.raw`(?:\bbefore|\bvor|\bavant|\bantes\s+de(?:l)?|[<>≤≥]=?|=[<>])\s*${LABEL}(${CODE})(?![a-z0-9])`,
  'g',
);
/** "Lot 24XX", "L2401*", "2401**": a code with a wildcard for its end names every lot it starts. */
const WILDCARD = /(?<![a-z0-9])[a-z]*\d+(?:x{2,}|\*+|\?+|#{2,})(?![a-z0-9])/;
/** "1234A/B/C", "1234 A/B/C", "1234A-D": letters after a code, each (or each between two) completing it. */
const LETTER_LIST =
  /(?<![a-z0-9])[a-z]*\d+\s?[a-z](?:\s*\/\s*[a-z])+(?![a-z0-9])|(?<![a-z0-9])[a-z]*\d+[a-z]\s*-\s*[a-z](?![a-z0-9])/;
/** "1234, 35 and 36": numbers after a code, shorter than it, that end it (1235, 1236). */
const SHORT_LIST =
  /(?<![a-z0-9./-])(\d{4,})((?:\s*(?:,|&|and|et|und|y|or|ou)\s*\d{2})+)(?=\s*(?:[,.;)]|$|(?!(?:and|or|et|und|y|ou|oz|ounces?|lbs?|pounds?|g|kg|ml|cl|l|fl|count|ct|packs?|pk|x|cm|mm|in|inch\w*)\b)[a-z]))/;
/** A code broken over a line (the folded text has a space there): "ABC-12344, ABC-⏎12345", "ABC12344, ABC⏎12345". */
const LINE_BROKEN = /(?<![a-z0-9])([a-z]{1,6})-?\d+[a-z0-9]*\s*,\s*\1-?\s\d|(?<![a-z0-9])[a-z0-9]*[a-z0-9]-\s\d/;

/** A month's name, in any of the four languages, whole or cut. */
const MONTH = String.raw`(?:jan(?:uary|vier|uar)?|janner|jaenner|feb(?:ruary|rero|ruar|er)?|fev(?:rier)?|mar(?:ch|s|zo|z)?|maerz|apr(?:il)?|avr(?:il)?|abr(?:il)?|mayo?|mai|jun(?:e|i|io)?|juin|jul(?:y|i|io)?|juil(?:let)?|aug(?:ust)?|aout|ago(?:sto)?|sep(?:t|tember|tembre|tiembre)?|set|oct(?:ober|obre|ubre)?|okt(?:ober)?|nov(?:ember|embre|iembre)?|dec(?:ember|embre)?|dez(?:ember)?|dic(?:iembre)?|ene(?:ro)?)\.?`;
/** A date as notices write it: 15/06/2025, 2025-06-15, 15.06., 15 June 2025, June 15, 2025, 15JUN2025, June 2025, 06/2025. */
const DATE_TOKEN = String.raw`(?:\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|\d{1,2}[/.-]\d{4}|\d{1,2}(?:st|nd|rd|th|er|\.)?\s+[a-z]{3,10}\.?,?\s+\d{4}|[a-z]{3,10}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}[a-z]{3}\d{2,4}|(?<![a-z])${MONTH}\s+(?:de\s+)?\d{4})`;
/** "15/06/2025 and all earlier dates", "15 June 2025 and subsequent", "15.06.2025 und alle davor", "et suivantes". */
const DATE_OPEN = new RegExp(
  String.raw`(?<![a-z0-9])${DATE_TOKEN}\s*\)?\s*,?\s*(?:(?:and|or|&|et|ou|und|oder|y|o)\s+${FILLER}(?:${OPEN_SIDE}|davor|danach)\b|onwards?\b)`,
);
/** "Lot 1234 to present", "01.06.2025 to date", "bis heute", "hasta la fecha": a range with an open end. */
const OPEN_TO = new RegExp(
  String.raw`(?<![a-z0-9])(?:${DATE_TOKEN}|${CODE})\s*(?:(?:to|through|thru|until|till|up\s+to|bis|hasta|au|a|jusqu\s*'?\s*(?:au|a))\s+(?:the\s+)?(?:present|current|today|now|date(?!\s*(?:de|d|of|limite)\b)|heute|jetzt|aujourd\s*'?\s*hui|ce\s+jour|hoy|la\s+fecha)|-\s*(?:present|today|heute|hoy|aujourd\s*'?\s*hui))\b`,
);
/** Words a date may repeat before a range's end ("du 01/06 au le 30/06"). */
const LABEL_WORDS = String.raw`(?:le|el|dem|the)\s+`;
/** Two dates joined as a range ("01.06.2025 bis und mit 30.06.2025", "14/06/2025 to 16/06", "15.-20.06.2025"). */
const DATE_RANGE = new RegExp(
  String.raw`(?<![a-z0-9-])(?:${DATE_TOKEN}|\d{1,2}\.?)(?!\d)(?:${JOIN}|\s*-\s*)(?:${LABEL_WORDS})?${DATE_TOKEN}(?![\d-])`,
);
/** "15JUN2025": a date written as one word, which the reader does not read. */
const COMPACT_DATE =
  /(?<![a-z0-9])\d{1,2}(?:jan|feb|fev|mar|mrz|apr|avr|may|mai|jun|jui|jul|aug|aou|sep|oct|okt|nov|dec|dez)[a-z]*\d{2,4}(?![a-z0-9])/;
/** A date given as near, not exact: "approximately", "circa", "+/- 2 days", "environ", "etwa", "aproximadamente". */
const DATE_NEAR_ONLY = new RegExp(
  String.raw`\b(?:approx\w*\.?|circa|ca\.|around|roughly|environ|vers\s+le|etwa|ungefahr|ungefaehr|aproximadamente|alrededor\s+del?)\s*(?:the\s+|le\s+|el\s+|dem\s+)?${DATE_TOKEN}|(?<![a-z0-9])${DATE_TOKEN}\s*\(?\s*(?:approx\w*|circa|environ|etwa|ungefahr|ungefaehr|aproximadamente|\+\s*/\s*-|±|plus\s+or\s+minus)`,
);

/** Words that leave a lot out, or name the one lot that is safe: "other than lot 1234", "lot 1234 excepted", "tested negative". */
const LEAVES_OUT = new RegExp(
  [
    String.raw`\b(?:other\s+than|autres?\s+que|andere\s+als|distint[oa]s?\s+de|with\s+the\s+exception|exception|ausnahme|excepcion|except\w*|exclud\w*|excepte\w*)\b`,
    String.raw`\b(?:not|nicht|kein\w*|never|nie)\b|n't\b|\bne\b.{0,40}\bpas\b|\bno\s+(?:esta|estan|se\s|forma|incluid\w*|afectad\w*)`,
    String.raw`\b(?:tested\s+negative|negati(?:f|v|ve|vo)\w*|remaining\s+(?:lots?|batch\w*|codes?)|all\s+others?|all\s+other\s+(?:lots?|batch\w*|codes?)|los\s+demas|les\s+autres|alle\s+anderen|restantes?)\b`,
    String.raw`\b(?:may|can|could)\s+(?:be\s+)?(?:sold|eaten|consumed|used)\b|\bsafe\s+to\b`,
    String.raw`\b(?:multiple|several|various|numerous|many|mehrere|verschiedene|plusieurs|divers|varios|multiples)\s+(?:lot\w*|batch\w*|charge\w*|code\w*|lote\w*|date\w*)\b|\bnot\s+the\s+only\b`,
  ].join('|'),
);
/** A list joined with a limit of another kind: "or any pack with a best before…", "all product manufactured between…". */
const OTHER_LIMIT =
  /\bor\s+any\s+(?:pack|product|unit|item|package|bottle|jar|box)\w*|\b(?:all|any)\s+(?:the\s+)?(?:products?|packs?|units?|items?|packages?)\s+(?:manufactured|produced|made|packed|expiring|dated|sold|bought|purchased|with|from|between|before|after|on)\b|\b(?:\d+\s?(?:g|kg|ml|l|oz|lb)s?|packs?)\s*:\s*(?:all\s+)?(?:best|use|bbd|exp|dlc|ddm|mhd)/;
/** Dates the reader does not read as a range or a span: "between the 10/06/2025 and the 20/06/2025", "June 15-30, 2025", "Q3 2025", "all … dates in 2025". */
const DATE_SPAN = new RegExp(
  [
    String.raw`\b(?:between|entre|zwischen)\s+(?:the|le|el|dem)\s+${DATE_TOKEN}\s+(?:and|et|y|und)\s+(?:the|le|el|dem)\s+${DATE_TOKEN}(?![\d-])`,
    String.raw`\b[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?\s*(?:-|to|thru|through|until|till)\s*\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b`,
    String.raw`\bq[1-4]\s*(?:19|20)\d\d\b|\b(?:first|second|third|fourth|last)\s+quarter\b`,
    String.raw`\ball\s+[a-z-]+(?:\s+[a-z-]+)?\s+dates?\s+(?:in|of|from|during)\s+(?:19|20)\d\d\b`,
  ].join('|'),
);
/** "Lots 24 001 to 24 050": codes written in groups of digits, joined as a range. */
const SPACED_RANGE = new RegExp(String.raw`(?<![\d])\d{1,3}(?:\s\d{3})+${JOIN}\d{1,3}(?:\s\d{3})+(?!\d)`);

/** Words that say the list is not the whole of it: "and others", "u.a.", "e.g.", "not exhaustive", "other lots may be". */
const NOT_ALL = new RegExp(
  [
    String.raw`\b(?:and|or|&|et|und|y)\s+(?:(?:all|alle|tous\s+les|todos\s+los)\s+)?(?:others?|more|similar|so\s+on|so\s+forth|the\s+like|autres|andere|otros)\b`,
    String.raw`\b(?:among(?:st)?\s+others|inter\s+alia|unter\s+anderem|entre\s+otros|entre\s+autres|notamment|beispielsweise|zum\s+beispiel|par\s+exemple|por\s+ejemplo|for\s+example|such\s+as|at\s+least|au\s+moins|mindestens(?!\s+haltbar)|al\s+menos|etc)\b`,
    String.raw`(?<![a-z])(?:u\.\s?a\.|z\.\s?b\.|e\.\s?g\.)`,
    String.raw`\b(?:not|non|nicht|no)[\s-]+(?:exhaustive?|exhaustiv\w*|abschliessend|limitativ\w*)`,
    String.raw`\b(?:other|additional|further|more)\s+(?:lots?|batch(?:es)?|codes?)\s+(?:may|might|could|can|will|are\s+also|also)\b`,
    String.raw`\b(?:weitere|andere)\s+chargen\s+(?:konnen|koennen|konnten|koennten|sind\s+ebenfalls|moglicherweise|moeglicherweise)`,
    String.raw`\bd\s*'?\s*autres\s+lots\s+(?:peuvent|pourraient|sont\s+egalement|seront)`,
    String.raw`\botros\s+lotes\s+(?:pueden|podrian|tambien)`,
  ].join('|'),
);

/** "lot codes beginning with 25": a prefix, never a list. */
const PREFIX =
  /\b(?:beginning|starting|begins|starts|ending|ends|commencant|commencent|beginnend|beginnen|empiezan|empezando|comienzan)\s+(?:with|in|by|par|mit|con|por)\b/;
/** "L1001-1050", "1001-50", "2405-2410": two codes joined by a dash, its end perhaps written short. */
const DASHED = /(?<![a-z0-9./-])([a-z]*)(\d+)-([a-z]*)(\d+)(?![a-z0-9/-]|\.[a-z0-9])/g;
/** "1234A, B and C", "2104B1, B2 and B3": the letters or short codes after a lot may each complete it. */
const SUFFIXES =
  /(?<![a-z0-9])[a-z]*\d+[a-z][a-z0-9]?\s*(?:,\s*[a-z][a-z0-9]?\s*)*,?\s*(?:and|&|et|und|y|or|ou)\s+[a-z][a-z0-9]?(?![a-z0-9])/;
/** A week number ("KW 12/2025", "week 12"): not a day, and no reader of dates here reads it. */
const WEEK = /(?<![a-z0-9])(?:kw|wk|week|woche|semaine|semana|sem)\s*\.?\s*\d{1,2}(?!\d)/;
/** "June 15 and 16", "10., 11. und 12.06.2025", "1st and 2nd June", "… and 16/06": days listed with one month. */
const DAY_LIST =
  /(?<![\d/.-])\d{1,2}(?:st|nd|rd|th|er|\.)?\s*(?:,|&|and|et|und|y|or|ou|oder|o)\s*\d{1,2}(?:st|nd|rd|th|er|\.)?(?![\d/-])|(?:,|&|and|et|und|y|or|ou|oder)\s*\d{1,2}[/.]\d{1,2}(?![/.-]?\d)(?!\s*-?\s*[a-z])/;
/** What shows a list of days is about dates: a month's name, a date label, or a date nearby. */
const DATE_NEAR =
  /(?:jan|feb|fev|mar|apr|avr|may|mai|jun|juin|jul|juil|aug|aou|sep|oct|okt|nov|dec|dez|best|use|bbd|exp|dlc|ddm|mhd|consum|caduc|sell|date|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})/;

/** Whether every number after `first` is shorter than it: the ends of codes that share its start. */
const shorterEnds = (first: string, rest: string) =>
  (rest.match(/\d+/g) ?? []).every((n) => n.length < first.length && first.length - n.length <= 3);

/** The folded text without the phrases that say a list is complete ("other lots are not affected"): read as such. */
const COMPLETE = new RegExp(
  String.raw`\b(?:${COMPLETE_LIST.map((words) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')).join('|')})\b`,
  'g',
);
const withoutCompleteLists = (folded: string) => folded.replace(COMPLETE, (m) => ' '.repeat(m.length));

const isYear = (code: string) => /^(?:19|20)\d\d$/.test(code);
const isDate = (code: string) => /^\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?$/.test(code);

/**
 * The unread items the guards find in one field's text as the reader sees it (`folded` is prepared(): one dash, one
 * apostrophe, so "jusqu’à ce jour" is "jusqu'a ce jour" here too), given what the reader made of it.
 */
export function scopeGuards(folded: string, field: string, items: readonly ScopeItem[], cut: boolean): ScopeItem[] {
  if (!items.some((i) => i.sure && i.kind !== 'unread' && i.kind !== 'all-lots')) return [];
  const out: ScopeItem[] = [];
  const unread = (text: string, why: string) => out.push({ kind: 'unread', why, text, field, sure: false });
  if (cut) unread(folded.slice(-40), 'the field ends where a store cuts text, so more may have followed');
  const ranges = new Set(items.flatMap((i) => (i.kind === 'lot-range' ? [`${lotKey(i.from)} ${lotKey(i.to)}`] : [])));
  const aboutLots = (at: number) => LOT_NEAR.test(folded.slice(Math.max(0, at - 60), at + 1));
  const aboutDates = (at: number) => DATE_NEAR.test(folded.slice(Math.max(0, at - 60), at + 40));
  const nearLot = (at: number, end: number) => LOT_NEAR.test(folded.slice(Math.max(0, at - 60), end + 40));
  for (const m of folded.matchAll(RANGE)) {
    const text = m[0];
    const from = m[1] ?? m[3] ?? '';
    const to = m[2] ?? m[4] ?? '';
    if (isYear(from) || isYear(to) || isDate(from) || isDate(to) || ranges.has(`${lotKey(from)} ${lotKey(to)}`))
      continue;
    if (!aboutLots(m.index + text.indexOf(from))) continue;
    unread(text, 'a range of lots the reader did not read whole');
    break;
  }
  for (const bound of [BOUND, BOUND_BEFORE])
    for (const m of folded.matchAll(bound)) {
      const code = m[1] ?? '';
      if (isYear(code) || isDate(code) || !aboutLots(m.index + m[0].indexOf(code))) continue;
      unread(m[0], 'an open bound around a lot');
      break;
    }
  // A bound on a date the reader read is one of its items; one it did not read, or a date only approximate, is not.
  const openDate = items.some((i) => i.kind === 'date' && (i.from === OPEN_START || i.to === OPEN_END));
  const dateBound = (openDate ? null : (DATE_OPEN.exec(folded) ?? OPEN_TO.exec(folded))) ?? DATE_NEAR_ONLY.exec(folded);
  if (dateBound) unread(dateBound[0], 'dates the notice bounds or gives as near, in words the reader did not read');
  // A date range the reader read is one item with two ends; two dates joined without one are not read whole.
  const dateRange = items.some(
    (i) => i.kind === 'date' && i.from !== i.to && i.from !== OPEN_START && i.to !== OPEN_END,
  );
  const unreadDates =
    (dateRange ? null : (DATE_RANGE.exec(folded) ?? DATE_SPAN.exec(folded))) ?? COMPACT_DATE.exec(folded);
  if (unreadDates) unread(unreadDates[0], 'dates the reader did not read whole');
  const partial = WILDCARD.exec(folded) ?? LETTER_LIST.exec(folded) ?? LINE_BROKEN.exec(folded);
  if (partial && aboutLots(partial.index))
    unread(partial[0], 'lots named by a pattern, by their last letters, or broken over a line');
  const short = SHORT_LIST.exec(folded);
  if (short && aboutLots(short.index) && shorterEnds(short[1] ?? '', short[2] ?? ''))
    unread(short[0], 'a list of lots written short after its first');
  // What a known "no other lots" phrase says is read; any other wording that leaves lots out is not.
  const leavesOut = LEAVES_OUT.exec(withoutCompleteLists(folded));
  if (leavesOut && nearLot(leavesOut.index, leavesOut.index + leavesOut[0].length))
    unread(leavesOut[0], 'words that leave lots out of the list, or name the safe one');
  const otherLimit = OTHER_LIMIT.exec(folded);
  if (otherLimit) unread(otherLimit[0], 'a list joined with a limit of another kind');
  const spaced = SPACED_RANGE.exec(folded);
  if (spaced && aboutLots(spaced.index)) unread(spaced[0], 'a range of lots written in groups of digits');
  const notAll = NOT_ALL.exec(folded);
  if (notAll && (nearLot(notAll.index, notAll.index + notAll[0].length) || aboutDates(notAll.index)))
    unread(notAll[0], 'a list the notice says is not the whole of it');
  for (const m of folded.matchAll(DASHED)) {
    const [text, head = '', first = '', tail = '', last = ''] = m;
    // The end with the start's letters, or without them ("L1001-1050"), written whole or short ("1001-50"); a month and
    // a day ("06-15") are no lots. A range the reader read is one of its items.
    const end = (tail === head || tail === '') && first.length >= 3 ? numberedRangeEnd(first, last) : undefined;
    if (end === undefined || !aboutLots(m.index)) continue;
    if (
      ranges.has(`${lotKey(head + first)} ${lotKey(tail + last)}`) ||
      ranges.has(`${lotKey(head + first)} ${lotKey(head + end)}`)
    )
      continue;
    unread(text, 'a range of lots the reader did not read whole');
    break;
  }
  const suffixes = SUFFIXES.exec(folded);
  const prefix = PREFIX.exec(folded) ?? (suffixes && aboutLots(suffixes.index) ? suffixes : null) ?? WEEK.exec(folded);
  if (prefix) unread(prefix[0], 'lots or dates named by a part of them, or a week');
  const days = DAY_LIST.exec(folded);
  if (days && DATE_NEAR.test(folded.slice(Math.max(0, days.index - 60), days.index + days[0].length + 30)))
    unread(days[0], 'a list of days the reader cannot read whole');
  return out;
}
