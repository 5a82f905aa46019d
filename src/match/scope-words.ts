// The words notices use for scope, in English, French, German and Spanish, folded (no case, no accents): labels, joins, ranges, bounds.

/** What a notice's date limits. The pack dates (best-before, use-by, expiry) are what a catalogue's date column holds. */
export type DateKind = 'best-before' | 'use-by' | 'expiry' | 'sell-by' | 'code-date' | 'production' | 'sale' | 'period';

/** Phrases as word lists, longest first, so that "lot number" wins over "lot". */
const phrases = (list: string) =>
  list
    .split('|')
    .map((p) => p.trim().split(' '))
    .sort((a, b) => b.length - a.length);

/** Labels that introduce lots. `sure: false`: the word often names something else (an item code), so it never proves. */
export const LOT_LABELS: { words: string[]; sure: boolean }[] = [
  ...phrases(
    'lot | lots | lot code | lot codes | lot number | lot numbers | code lot | codes lot | numero de lot | numeros de lot | ' +
      'no de lot | nos de lot | no lot | lot de fabrication | lot de production | numero du lot | batch | batches | batch code | ' +
      'batch codes | batch number | batch numbers | batch no | mfg code | mfg codes | manufacturing code | production code | ' +
      'production codes | charge | chargen | chargennummer | chargennummern | chargen nr | chargenbezeichnung | ch b | los | ' +
      'los nr | losnummer | losnummern | lote | lotes | numero de lote | numeros de lote | no de lote | codigo de lote | ' +
      // Labels hyphenated into one token: "Los-Nr. L102", "Chargen-Nr.: 4521", "Lot-No. 2104".
      'los-nr | los-nummer | los-nummern | lot-nr | lot-no | charge-nr | chargen-nr | chargen-nummer | chargen-nummern | ' +
      'lotnummer | lotnummern | lot-nummer | batch/lot | lot/batch | batches/lots | lots/batches | ' +
      // FSIS: "and the package code B9FOD", "case code 04472".
      'package code | package codes | case code | case codes | codigo de paquete | codigos de paquete',
  ).map((words) => ({ words, sure: true })),
  ...phrases('code | codes | coded | product code | production lot').map((words) => ({ words, sure: false })),
];

/** Words a lot label may carry before its values: "Lot n° 1234", "Batch code: 21045", "Lot #s 12, 13". */
export const LOT_LABEL_TAIL = new Set(
  ':|#|#s|.|-|no|nos|nr|n|number|numbers|num|numero|numeros|code|codes|id|ref|reference|is|are|concerne|concernes|affected|betroffen'.split(
    '|',
  ),
);

/** Code-date labels whose code may be no date (CODE_DATE_LABELS), listed once for both. */
const CODE_NAMING = 'date code | date codes | pack code | codigo de fecha | codigos de fecha';

export const DATE_LABELS: { kind: DateKind; words: string[] }[] = (
  [
    [
      'best-before',
      'date de durabilite minimale | ddm | dluo | a consommer de preference avant | a consommer de preference avant le | ' +
        'a consommer de preference avant fin | best before | best before end | best before date | best before dates | ' +
        'bbe | bbd | bb | best by | best by date | best by dates | best if used by | best if used by date | best if used before | ' +
        'mhd | mindesthaltbarkeitsdatum | mindestens haltbar bis | consumir preferentemente antes del | ' +
        'consumir preferentemente antes de | fecha de consumo preferente | consumo preferente | ' +
        // FSIS's Spanish alerts: "Mejor consumir antes del día 05/17/24" for "Best By".
        'mejor consumir antes del | mejor consumir antes de',
    ],
    [
      'use-by',
      "date limite de consommation | dlc | a consommer jusqu au | a consommer jusqu'au | use by | use by date | use by dates | " +
        'use before | use before date | use before dates | ' +
        'used by | use or freeze by | verbrauchsdatum | zu verbrauchen bis | verbrauchen bis | fecha de caducidad | caducidad | ' +
        // FSIS's Spanish alerts: "USAR ANTES DEL 10 AGO 2025" for "USE BY AUG 10 2025".
        'consumir antes de | consumir antes del | usar antes de | usar antes del',
    ],
    [
      'expiry',
      'exp | exp date | expiry | expiry date | expiry dates | expiration | expiration date | expiration dates | expires | ' +
        'date de peremption | peremption | verfallsdatum | verwendbar bis | fecha de vencimiento | vencimiento',
    ],
    [
      'sell-by',
      'sell by | sell by date | sell by dates | display until | a vendre avant | verkaufen bis | fecha de venta',
    ],
    ['code-date', `code date | code dates | dated | coded | ${CODE_NAMING}`],
    [
      'production',
      'date de fabrication | fabrique le | fabrication | produced | produced on | production date | production dates | ' +
        'manufactured | manufacture date | manufacturing date | manufacturing dates | mfg date | date of manufacture | ' +
        'packed on | pack date | packing date | date d emballage | date de conditionnement | herstellungsdatum | ' +
        'hergestellt am | produktionsdatum | fecha de fabricacion | fecha de produccion | fecha de envasado | elaborado el',
    ],
    [
      'sale',
      'sold | sold between | sold from | on sale | vendu | vendus | vendu entre | vendu du | commercialise | commercialises | ' +
        'commercialisation | date de commercialisation | verkauft | im verkauf | vendido | vendidos | comercializado',
    ],
  ] as const
).flatMap(([kind, list]) => phrases(list).map((words) => ({ kind, words })));

/**
 * Date labels that name a code, not a date: FSIS's "with date code D23270 printed on the package" (Spanish "con código de
 * fecha D23270"). A code after one that is no date is read as a lot: the pack carries it as a batch's code.
 */
export const CODE_DATE_LABELS = new Set(CODE_NAMING.split('|').map((p) => p.trim()));

/** Words between a date label and its first date: "Best by dates of 08/25/14", "DDM : du …", "MHD vom …". */
export const DATE_FILLER = new Set(
  (
    ':|.|-|date|dates|of|du|le|la|les|des|de|d|vom|am|zum|der|del|el|is|are|on|the|with|from|between|entre|zwischen|' +
    'desde|ranging|range|ranges|following|suivantes|suivante|folgende|siguientes'
  ).split('|'),
);

/** What ends a lower bound ("from … to …") as a range, or joins two lot codes as one. */
export const RANGE_WORDS = new Set([
  '-',
  'to',
  'through',
  'thru',
  'until',
  'till',
  'au',
  'a',
  "jusqu'au",
  'jusqu',
  'bis',
  'hasta',
  'al',
]);
/** "between … and …": the word after "between" that closes the range. */
export const BETWEEN = new Set(['between', 'entre', 'zwischen']);
export const BETWEEN_AND = new Set(['and', 'et', 'und', 'y', '&']);

/** Separators of a list of values. */
export const LIST_JOINS = new Set([
  ',',
  ';',
  '/',
  '&',
  '+',
  'and',
  'et',
  'und',
  'y',
  'e',
  'or',
  'ou',
  'oder',
  'o',
  'as',
  'well',
]);

/** Bounds written before a date: everything up to (and including) it, or from it on. */
export const BEFORE_PREFIX = phrases(
  'up to and including | up to | up until | through | thru | until | till | to | on or before | before | prior to | ' +
    "no later than | not later than | earlier than | jusqu au | jusqu'au | jusqu a | avant le | avant | anterieure au | " +
    'bis einschliesslich | bis einschließlich | bis zum | bis | vor dem | vor | hasta el | hasta | antes del | antes de',
);
export const AFTER_PREFIX = phrases(
  'on or after | after | later than | from | since | starting | beginning | a partir du | a partir de | apres le | ' +
    'depuis le | depuis | ab dem | ab | seit | nach dem | desde el | desde | a partir del | despues del',
);
/** Bounds written after a date: "08/25/14 or prior", "… et antérieures", "… und früher". */
export const BEFORE_SUFFIX = phrases(
  'or prior | and prior | or earlier | and earlier | or before | and before | or older | and older | and below | ' +
    '& prior | & earlier | & before | & older | & below | ' +
    'et avant | ou avant | et anterieures | et anterieurs | ou anterieure | et inferieures | und fruher | und frueher | ' +
    'oder fruher | und alter | o anterior | o anteriores | y anteriores',
);
export const AFTER_SUFFIX = phrases(
  'or later | and later | or after | and after | or newer | and newer | onwards | onward | and above | et apres | ' +
    '& later | & after | & newer | & above | & onwards | ' +
    'ou apres | et posterieures | et ulterieures | und spater | und spaeter | oder spater | o posterior | o posteriores | ' +
    'y posteriores | en adelante',
);

/** Every lot, date or code of the product: "Tous les lots", "All codes", "alle Chargen", "todos los lotes". */
export const ALL_SCOPE = phrases(
  'all lots | all lot numbers | all lot codes | all batches | all batch codes | all batch numbers | all codes | ' +
    'all code dates | all dates | all date codes | all best before dates | all best by dates | all use by dates | ' +
    'all expiration dates | all expiry dates | all production dates | all units | all products | ' +
    'regardless of lot | regardless of code | irrespective of batch | tous les lots | tous lots | toutes les dates | ' +
    'tous les numeros de lot | tous les codes | toutes les ddm | toutes les dlc | quel que soit le lot | alle chargen | ' +
    'alle losnummern | alle mhd | alle mindesthaltbarkeitsdaten | alle chargennummern | unabhangig von der charge | unabhängig von der charge | ' +
    'todos los lotes | todos los codigos | todas las fechas | independientemente del lote | every lot | every batch | ' +
    'any lot | any lot code | any batch | all product lots | all sizes and lot codes | ' +
    "samtliche chargen | saemtliche chargen | jede charge | jeder charge | l'ensemble des lots | ensemble des lots | " +
    'tous les numeros de lots | quel que soit le numero de lot | quel que soit le numero du lot | cualquier lote | ' +
    'todas las unidades | todos los productos | the entire production | entire production | entire production run | ' +
    'the whole production | whole production | all production | toute la production | l ensemble de la production | ' +
    "l'ensemble de la production | die gesamte produktion | gesamte produktion | toda la produccion",
);

/**
 * Words that make what follows every one ("Lot: All", "all unexpired lots", "Sämtliche Losnummern"), or that say a scope
 * runs open ("to present", "and everything in between"): the reader reads the forms it knows, and any left unread
 * beside what it read keep the field unread (scope-open.ts).
 */
export const EVERY_WORDS = new Set(
  (
    'all|any|every|entire|whole|alle|samtliche|saemtliche|jede|jeder|jedes|gesamte|gesamten|tous|toutes|tout|' +
    "l'ensemble|ensemble|todos|todas|toda|todo|cualquier|cualquiera"
  ).split('|'),
);
/** Words between an every-word and its noun that leave it every lot: "all unexpired lots", "all in-date batches". */
export const EVERY_ADJECTIVES = new Set(
  (
    'the|of|les|des|de|los|las|die|der|unexpired|non-expired|nonexpired|in-date|current|existing|available|product|' +
    'products|affected|recalled|concerned|concernes|betroffenen|afectados|valid|remaining-in-date'
  ).split('|'),
);
/** What "all …" may cover that is no lot label: "the entire production", "all stock". */
export const WHOLE_NOUNS = new Set(
  'production|production-run|run|stock|output|produktion|produccion|fabrication|lots|batches|codes|chargen|lotes'.split(
    '|',
  ),
);
/** What "all" may cover after a date label, besides a date label: "Best before: All dates", "Use by: any date". */
export const DATE_NOUNS = new Set('date|dates|fecha|fechas|daten|datum|code|codes'.split('|'));
/** The open end of a range ("Lot 1234 to present", "01.06.2025 to date", "bis heute", "hasta la fecha"). */
export const OPEN_END_WORDS = phrases(
  'present | the present | present day | the present day | present time | the present time | current | current date | ' +
    "the current date | date | today | now | heute | jetzt | dato | aujourd'hui | aujourd hui | ce jour | hoy | la fecha | " +
    'el presente | la actualidad',
);
/** "1001 to 1050 inclusive", "1001 inclusive to 1050", "jusqu'au 30/06/2025 inclus". */
export const INCLUSIVE = new Set(
  'inclusive|inclusively|incl|inclus|incluse|inclusivement|einschliesslich|einschlieslich|inklusive|inkl|incluido|incluidos|incluida|incluidas|incluso'.split(
    '|',
  ),
);
/**
 * Words that say a scope runs open or wider: left unread right beside what the reader read ("Lot 1234 and everything
 * in between", "30 June 2025 or sooner"), the field is not read whole.
 */
export const OPEN_WORDS = new Set(
  (
    'earlier|later|before|after|prior|previous|preceding|sooner|older|newer|subsequent|subsequently|onwards|onward|' +
    'thereafter|beyond|between|present|today|inclusive|inclusively|everything|anything|remaining|rest|' +
    'anterieur|anterieure|anterieures|anterieurs|posterieur|posterieure|posterieures|posterieurs|ulterieur|' +
    'ulterieures|ulterieurs|suivants|suivantes|precedents|precedentes|avant|apres|entre|inclus|incluse|inclusivement|' +
    'fruher|frueher|spater|spaeter|alter|aelter|junger|juenger|davor|danach|vorher|nachher|zwischen|dazwischen|' +
    'folgende|folgenden|heute|einschliesslich|inklusive|anteriores|posteriores|siguientes|previas|' +
    'previos|hoy|adelante|incluido|incluidos'
  ).split('|'),
);

/** Words an open word may point back with: "and prior to this", "or earlier ones". */
export const POINTERS = new Set('this|it|that|these|those|one|ones|them'.split('|'));
/** Words after which "before" or "after" is an instruction, not a bound: "after opening", "before consuming". */
export const INSTRUCTION_OBJECTS = new Set(
  (
    'opening|opened|consuming|consumption|cooking|eating|use|using|serving|thawing|defrosting|purchase|feeding|' +
    "ouverture|l'ouverture|consommation|cuisson|offnen|oeffnen|anbruch|verzehr|abrir|abierto|apertura|consumo|consumir"
  ).split('|'),
);
/** Words that make an open word speak of something other than a lot or date: "present in all regions", "prior to recall". */
export const PREPOSITIONS = new Set(
  'to|than|in|on|at|for|from|of|with|by|within|au|a|de|dans|zu|an|im|en|para|por'.split('|'),
);

/** Words that limit what follows in a way the reader does not model ("all lots except …"): scope stays unproven. */
export const NEGATIONS = phrases(
  'except | excepting | excluding | excluded | exclusion | not affected | not included | not subject | unaffected | ' +
    'not involved | not part of | sauf | hors | a l exception | excepte | exceptes | non concerne | non concernes | ' +
    'non concernee | non concernees | pas concerne | pas concernes | ausser | ausgenommen | nicht betroffen | ' +
    'nicht enthalten | excepto | salvo | no afectado | no afectados | no esta afectado | no estan afectados | ' +
    'no incluidos | menos',
);
/** Phrases that say a list is complete ("other lots are not affected") or that none applies: read, carrying no limit. */
export const COMPLETE_LIST = phrases(
  'no other lots are affected | no other lots | other lots are not affected | other batches are not affected | ' +
    'no other batches | no other products | no other codes | les autres lots ne sont pas concernes | ' +
    // After "all" or "any" too (scope-read.ts): "any other lot is safe", "all other lots are unaffected".
    'other lot is safe | other lots are safe | other batch is safe | other batches are safe | other lot is not affected | ' +
    'other lots are unaffected | other batches are unaffected | other lot is unaffected | other batch is not affected | ' +
    'aucun autre lot n est concerne | aucun autre lot | andere chargen sind nicht betroffen | ' +
    'weitere chargen sind nicht betroffen | otros lotes no estan afectados | ningun otro lote | ' +
    // RappelConso's "date non concernée": the notice limits no date, which is read, not a limit to worry about.
    'date non concernee | dates non concernees | lot non concerne | pas de date | sans date | not applicable | ' +
    'no date | no lot | keine angabe | nicht zutreffend | no aplica',
);
/** Words that say a list goes on elsewhere or is not whole: "etc.", "see the attached list", "such as". */
export const OPEN_LIST = phrases(
  'etc | … | ... | among others | amongst others | including but not limited to | including | such as | for example | ' +
    'e g | notamment | par exemple | entre autres | u a | unter anderem | z b | zum beispiel | entre otros | ' +
    'por ejemplo | see attached | see the attached | see list | see the list | listed at | listed on | full list | ' +
    'complete list | attached list | voir liste | voir la liste | voir piece jointe | en piece jointe | liste en annexe | ' +
    'liste jointe | ci joint | siehe anhang | siehe liste | siehe tabelle | ver lista | ver anexo | vease la lista',
);

/** Units after a number make it a quantity ("charge 25 kg", "fast charge 65W"), not a lot. */
export const UNITS = new Set(
  (
    'g|gr|kg|mg|mcg|µg|l|ml|cl|dl|oz|floz|fl|lb|lbs|w|v|kw|kwh|mah|wh|ah|a|hz|mm|cm|m|in|inch|inches|ft|gb|tb|mb|%|x|' +
    'ct|pk|pc|pcs|pack|packs|count|mp|mhz|ghz|db|psi|bar'
  ).split('|'),
);
/** Counted things after a number: "vendu en lot 12 pots", "Lot de 6 bouteilles", "250 stores". */
export const COUNT_NOUNS = new Set(
  (
    'pot|pots|piece|pieces|unit|units|unite|unites|box|boxes|boite|boites|bottle|bottles|bouteille|bouteilles|jar|jars|' +
    'bocal|bocaux|can|cans|canette|canettes|paquet|paquets|sachet|sachets|barquette|barquettes|tube|tubes|flacon|' +
    'flacons|stuck|stueck|dose|dosen|glas|glaser|flasche|flaschen|packung|packungen|unidad|unidades|bote|botes|frasco|' +
    'frascos|lata|latas|paquete|paquetes|pair|pairs|paire|paires|carton|cartons|case|cases|tray|trays|bag|bags|sac|sacs|' +
    'tin|tins|cup|cups|pouch|pouches|portion|portions|stores|store|magasins|people|persons|personnes|reports|incidents|' +
    'injuries|units|ounce|ounces|gram|grams|pound|pounds|liter|liters|litre|litres|capsules|tablets|comprimes|gelules|' +
    'servings|slices|tranches|days|jours|months|mois|years|ans|hours|heures|percent|pour'
  ).split('|'),
);
