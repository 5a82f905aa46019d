// Notices that cover the row in words the reader does not read whole: the row is never excluded (a review's findings).
import { describe, expect, it } from 'vitest';
import { DE, EAN, FR, GB, judge, US } from '../helpers/scope-judge.js';

const AT = { geo_jurisdictions: ['AT'] };
const ES = { geo_jurisdictions: ['ES'] };
const CH = { geo_jurisdictions: ['CH'] };
const EAN2 = '3017620422003';
const t = (s: string, geo: Record<string, unknown> = US) => ({ product_description: s, ...geo });
const ids = (...lines: string[]) => ({ standard_identifiers_and_barcodes: lines });
const id = (type: string, value: string, extra = {}) => ({
  standard_identifiers_and_barcodes: [
    { type: 'EAN', value: EAN },
    { type, value },
  ],
  ...extra,
});
const batch = (value: string, type = 'batch') => ({
  standard_identifiers_and_barcodes: [
    { type: 'EAN', value: EAN },
    { type, value },
  ],
});

/** Each case: the notice's fields, the row's lot or best-before cell. */
type Case = [string, Record<string, unknown>, { lot?: string; bb?: string }];
const text = (t: string, geo: Record<string, unknown> = US) => ({ product_description: t, ...geo });

describe('a notice that covers the row is never grounds to exclude it', () => {
  it.each<Case>([
    // A batch identifier's value is read as a list, never as one lot; one that names no lot proves nothing.
    ['a batch list', batch('L123, L124'), { lot: 'L124' }],
    ['a lot range in a lot field', batch('1001-1050', 'lot'), { lot: '1020' }],
    ['a batch list with semicolons', batch('B2104; B2105', 'batch number'), { lot: 'B2105' }],
    ['batch "unknown"', batch('unknown'), { lot: 'L777' }],
    ['batch "-"', batch('-'), { lot: 'L777' }],
    ['batch "N/A"', batch('N/A'), { lot: 'L777' }],
    ['batch "Various"', batch('Various'), { lot: 'L777' }],
    // Bounds and ranges around lots.
    ['"and prior"', text('Lot codes 1234 and prior are affected.'), { lot: '1200' }],
    ['"or earlier"', text('Lot numbers 1234 or earlier.'), { lot: '1200' }],
    ['"and later"', text('Lots 1234 and later.'), { lot: '1300' }],
    ['"Lot … through Lot …"', text('Lot 1001 through Lot 1050.'), { lot: '1020' }],
    ['"from lot … to lot …"', text('Affected: from lot 1001 to lot 1050.'), { lot: '1020' }],
    ['"lot … au lot …"', text('Lot 1001 au lot 1050.', FR), { lot: '1020' }],
    ['"Lots du … au …"', text('Lots du 1001 au 1050.', FR), { lot: '1020' }],
    ['"up to"', text('Lot numbers 1001 up to 1050.'), { lot: '1020' }],
    ['"between … and …"', text('Batch 999. Lot numbers between 1001 and 1050.', GB), { lot: '1020' }],
    ['"L1001-1050"', text('Lots L1001-1050', GB), { lot: 'L1020' }],
    ['"1001-50"', text('Lots 1001-50', GB), { lot: '1020' }],
    ['"1234/35/36"', text('Lot 1234/35/36', GB), { lot: '1235' }],
    ['"1001 ~ 1050"', text('Lots 1001 ~ 1050', GB), { lot: '1020' }],
    ['"1234A, B and C"', text('Batch 1234A, B and C', GB), { lot: '1234B' }],
    ['"beginning with"', text('Lot codes 2401A and 2402A, and lot codes beginning with 25.'), { lot: '2517' }],
    // Leading zeros, and a row's lot written with its label or in parts.
    ['leading zeros in the notice', text('Lot 0012345.'), { lot: '12345' }],
    ['leading zeros in the row', text('Lot 12345.'), { lot: '0012345' }],
    ['leading zeros and the EU marker on one side', text('Lot L0123.', FR), { lot: '0123' }],
    ['the EU marker on a range', text('Lots L1001 to L1050.', FR), { lot: '1020' }],
    ['"Charge 1234" in the cell', text('Charge 1234.', DE), { lot: 'Charge 1234' }],
    ['"#1234" in the cell', text('Lot 1234.'), { lot: '#1234' }],
    ['"Lot: 1234" in the cell', text('Lot 1234.'), { lot: 'Lot: 1234' }],
    ['Excel\'s ="01234"', text('Lot 01234.'), { lot: '="01234"' }],
    ['two lots in the cell', text('Lot L124.'), { lot: 'L123 L124' }],
    ['two lots a line each', text('Lot L124.'), { lot: 'L123\nL124' }],
    ['a range in the cell', text('Lot L125.'), { lot: 'L120-L130' }],
    [
      '"Lot n°1234" in an identifier line',
      { standard_identifiers_and_barcodes: [`${EAN} Lot n°1234 DLC 15/06/2025`] },
      { lot: '1234' },
    ],
    // Dates listed by their days, months the reader did not know, weeks.
    ['"June 15 and 16, 2025"', text('Best by June 15 and 16, 2025.'), { bb: '06/16/2025' }],
    [
      '"28 May 2025, 10, 11 and 12 June 2025"',
      text('Use by: 28 May 2025, 10, 11 and 12 June 2025.', GB),
      { bb: '11/06/2025' },
    ],
    ['"10., 11. und 12.06.2025"', text('MHD 28.05.2025, 10., 11. und 12.06.2025', DE), { bb: '11.06.2025' }],
    [
      '"1st and 2nd June 2025"',
      text('Best before dates: 30 May 2025, 1st and 2nd June 2025.', GB),
      { bb: '01/06/2025' },
    ],
    ['"… and 16/06"', text('Best before 15/06/2025 and 16/06', GB), { bb: '16/06/2025' }],
    ['"Jänner"', text('Mindesthaltbarkeitsdatum 15.01.2026, 31. Jänner 2026', AT), { bb: '31.01.2026' }],
    ['"Feber"', text('MHD 15.01.2026, 28. Feber 2026', AT), { bb: '28.02.2026' }],
    ['"set" (septiembre)', text('Consumo preferente 03/08/2025 y 4 set 2025', ES), { bb: '04/09/2025' }],
    ['a week number', text('MHD 01.01.2026, KW 12/2025', DE), { bb: '19.03.2025' }],
    // A row's date cell with a time, or two dates.
    ['an ISO date-time cell', text('Best before 15/06/2025.', GB), { bb: '2025-06-15T00:00:00' }],
    ['two dates in the cell', text('Best before 01/07/2025.', GB), { bb: '01/06/2025, 01/07/2025' }],
    // Lots read as dates: the notice still writes the row's lot.
    [
      'lots that read as dates',
      text('Lot 12-06-25, 13-06-25; best before 30/06/2025', GB),
      { lot: '13-06-25', bb: '01/07/2025' },
    ],
    // A US notice whose own dates show it writes the day first; an 8-digit lot that looks like a barcode.
    [
      '"12/05/2025 and 28/06/2025" in a US notice',
      text('Best before 12/05/2025 and 28/06/2025.'),
      { bb: '2025-05-12' },
    ],
    ['"05/12/2025 et 06/28/2025" in a French one', text('DDM 05/12/2025 et 06/28/2025', FR), { bb: '2025-05-12' }],
    [
      'an 8-digit lot starting its identifier line',
      {
        standard_identifiers_and_barcodes: [`${EAN} 24061501 DLC 15/06/2024`, '24061502 DLC 16/06/2024'],
        ...FR,
      },
      { lot: '24061502', bb: '16/06/2024' },
    ],
    [
      '"2411CT" read as a count',
      { standard_identifiers_and_barcodes: [`${EAN} Lot 2411AB, 2411CT, 2411DE`] },
      { lot: '2411CT' },
    ],
    // Every lot, in words the reader now knows.
    [
      '"sämtliche Chargen"',
      text('Betroffen sind sämtliche Chargen. Die Probe stammt aus Charge 12345.', DE),
      { lot: '99999' },
    ],
    ['"jede Charge"', text('Der Rückruf betrifft jede Charge; Charge 12345 wurde beprobt.', DE), { lot: '99999' }],
    [
      '"l\'ensemble des lots"',
      text("L'ensemble des lots est concerné. Lot 12345 (analyse positive).", FR),
      { lot: '99999' },
    ],
    ['"tous les numéros de lots"', text('Tous les numéros de lots. Lot 12345.', FR), { lot: '99999' }],
    ['"every lot"', text('Every lot is affected; lot 12345 tested positive.'), { lot: '99999' }],
    ['"any lot code"', text('Any lot code is affected; lot 12345 tested positive.'), { lot: '99999' }],
    ['"cualquier lote"', text('Afecta a cualquier lote. Lote 12345.', ES), { lot: '99999' }],
  ])('%s', (_what, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });

  // An open bound in words the guard did not know, or a list the notice says is not all of it (a second probe).
  it.each<Case>([
    ['"oder älter"', text('Losnummer 1001 oder älter', DE), { lot: '0900' }],
    ['"und jünger"', text('Chargen 1001 und jünger', DE), { lot: '1100' }],
    ['"und neuer"', text('Chargen 1001 und neuer', DE), { lot: '1100' }],
    ['"und nachfolgende"', text('Chargen 1001 und nachfolgende', DE), { lot: '1100' }],
    ['"und alle folgenden"', text('Chargen 1001 und alle folgenden', DE), { lot: '1100' }],
    ['"und höher"', text('Chargen 1001 und höher', DE), { lot: '1100' }],
    ['"und niedriger"', text('Chargen 1001 und niedriger', DE), { lot: '0900' }],
    ['"and subsequent"', text('Lot 1001 and subsequent'), { lot: '1100' }],
    ['"and following"', text('Lot 1001 and following'), { lot: '1100' }],
    ['"and up"', text('Lots 1001 and up'), { lot: '1100' }],
    ['"and all later lots"', text('Lots 1001 and all later lots'), { lot: '1100' }],
    ['"and all subsequent lots"', text('Lots 1001 and all subsequent lots'), { lot: '1100' }],
    ['"and thereafter"', text('Lots 1001 and thereafter'), { lot: '1100' }],
    ['"and beyond"', text('Lots 1001 and beyond'), { lot: '1100' }],
    ['"and previous"', text('Lots 1001 and previous'), { lot: '0900' }],
    ['"and preceding"', text('Lots 1001 and preceding'), { lot: '0900' }],
    ['"before 1001"', text('Lots before 1001'), { lot: '0900' }],
    ['"> 1001"', text('Lots > 1001'), { lot: '1100' }],
    ['"< 1001"', text('Lots < 1001'), { lot: '0900' }],
    ['"≥ 1001"', text('Lots ≥ 1001'), { lot: '1100' }],
    ['"1001+"', text('Lot 1001+'), { lot: '1100' }],
    ['"et suivants"', text('Lots 1001 et suivants', FR), { lot: '1100' }],
    ['"et précédents"', text('Lots 1001 et précédents', FR), { lot: '0900' }],
    ['"et ultérieurs"', text('Lots 1001 et ultérieurs', FR), { lot: '1100' }],
    ['"et inférieurs"', text('Lots 1001 et inférieurs', FR), { lot: '0900' }],
    ['"y siguientes"', text('Lotes 1001 y siguientes', ES), { lot: '1100' }],
    ['"and all others"', text('Lots 1001, 1002 and all others'), { lot: '1100' }],
    ['"and more"', text('Lots 1001, 1002 and more'), { lot: '1100' }],
    ['"u.a."', text('Chargen 1001, 1002 u.a.', DE), { lot: '1100' }],
    ['"(and others)"', text('Lot 1001 (and others)'), { lot: '1100' }],
    ['"and similar"', text('Lots 1001 and similar'), { lot: '1100' }],
    ['"at least"', text('At least lots 1001 and 1002'), { lot: '1100' }],
    ['"list not exhaustive"', text('Lots 1001 and 1002 (list not exhaustive)'), { lot: '1100' }],
    ['"other lots may be affected"', text('Lots 1001 and 1002; other lots may be affected'), { lot: '1100' }],
    ['"additional lots may be added"', text('Lots 1001 and 1002; additional lots may be added'), { lot: '1100' }],
    ['"z. B."', text('Betroffen sind z. B. Chargen 1001 und 1002', DE), { lot: '1100' }],
    ['"notamment"', text('Lots notamment 1001 et 1002', FR), { lot: '1100' }],
    ['"entre otros"', text('Lotes 1001 y 1002, entre otros', ES), { lot: '1100' }],
  ])('%s', (_what, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });

  // A second review: ranges joined by words the guard did not know, patterns, letter lists, short lists, codes broken
  // over a line, and dates bounded, joined or given as near in words the reader does not read.
  it.each<Case>([
    ['lots "jusqu\'à"', text("Lots 1001 jusqu'à 1050.", FR), { lot: '1020' }],
    ['lots "bis einschließlich"', text('Chargen 1001 bis einschließlich 1050.', DE), { lot: '1020' }],
    ['lots "bis und mit"', text('Chargen 1001 bis und mit 1050.', CH), { lot: '1020' }],
    ['lots "hasta el"', text('Lotes 1001 hasta el 1050.', ES), { lot: '1020' }],
    ['a batch identifier "bis einschließlich"', batch('1001 bis einschließlich 1050', 'charge'), { lot: '1020' }],
    ['a lot identifier "jusqu\'à"', batch("1001 jusqu'à 1050", 'lot'), { lot: '1020' }],
    [
      'a RappelConso line "jusqu\'à"',
      {
        standard_identifiers_and_barcodes: [`${EAN} Lots 1001 jusqu'à 1050 Date limite de consommation 15/06/2025`],
        ...FR,
      },
      { lot: '1020' },
    ],
    ['"24XX"', text('Lot 24XX.'), { lot: '2417' }],
    ['"L2401*"', text('Lot L2401*', GB), { lot: 'L240117' }],
    ['"2401**"', text('Lot 2401**'), { lot: '240117' }],
    ['"1234A/B/C"', text('Batch code 1234A/B/C', GB), { lot: '1234B' }],
    ['"1234 A/B/C"', text('Batch code 1234 A/B/C', GB), { lot: '1234B' }],
    ['"1234A-D"', text('Batch codes 1234A-D', GB), { lot: '1234B' }],
    ['"1234, 35 and 36"', text('Lots 1234, 35 and 36.', GB), { lot: '1235' }],
    ['a code broken at its dash over a line', text('Lots ABC-12344, ABC-\n12345', GB), { lot: 'ABC-12345' }],
    ['a code broken over a line', text('Lots ABC12344, ABC\n12345', GB), { lot: 'ABC12345' }],
    ['"or less"', text('Lot numbers 1234 or less.'), { lot: '1200' }],
    [
      'dates "bis und mit"',
      text('Mindesthaltbarkeitsdatum 01.06.2025 bis und mit 30.06.2025', CH),
      { bb: '15.06.2025' },
    ],
    ['dates "du … jusqu\'à"', text("DDM du 01/06/2025 jusqu'à 30/06/2025", FR), { bb: '15/06/2025' }],
    ['"and all earlier dates"', text('Best before 30/06/2025 and all earlier dates.', GB), { bb: '15/06/2025' }],
    ['"und davor"', text('MHD 30.06.2025 und davor.', DE), { bb: '15.06.2025' }],
    ['a date "oder älter"', text('MHD 30.06.2025 oder älter.', DE), { bb: '15.06.2025' }],
    ['"y fechas anteriores"', text('Consumo preferente 30/06/2025 y fechas anteriores.', ES), { bb: '15/06/2025' }],
    ['"ou antérieures"', text('DLC 20/06/2025 ou antérieures.', FR), { bb: '15/06/2025' }],
    ['"et suivantes"', text('DLC 10/06/2025 et suivantes.', FR), { bb: '15/06/2025' }],
    ['"and subsequent dates"', text('Best before 20/06/2025 and subsequent dates.', GB), { bb: '25/06/2025' }],
    ['a date "y siguientes"', text('Fecha de caducidad 20/06/2025 y siguientes.', ES), { bb: '25/06/2025' }],
    ['"Use by … and subsequent"', text('Use by 15 June 2025 and subsequent', GB), { bb: '20/06/2025' }],
    ['"und alle davor"', text('Mindesthaltbarkeitsdatum 15.06.2025 und alle davor', DE), { bb: '01.06.2025' }],
    ['"or sooner"', text('Use by 20/06/2025 or sooner.', GB), { bb: '15/06/2025' }],
    ['"and following"', text('Best before 20/06/2025 and following.', GB), { bb: '25/06/2025' }],
    ['"und danach"', text('MHD 20.06.2025 und danach.', DE), { bb: '25.06.2025' }],
    ['"oder neuer"', text('MHD 20.06.2025 oder neuer.', DE), { bb: '25.06.2025' }],
    ['"15.-20.06.2025" after a date', text('MHD 10.06.2025, 15.-20.06.2025', DE), { bb: '17.06.2025' }],
    ['"sowie 15. bis 20.06.2025"', text('MHD 10.06.2025 sowie 15. bis 20.06.2025', DE), { bb: '17.06.2025' }],
    ['"… and 14/06/2025 to 16/06"', text('Use by 10/06/2025 and 14/06/2025 to 16/06.', GB), { bb: '15/06/2025' }],
    ['"Mrz"', text('MHD 10.03.2026, 15. Mrz 2026', DE), { bb: '15.03.2026' }],
    ['"15JUN2025"', text('Best by 14 JUN 2025 and 15JUN2025'), { bb: '06/15/2025' }],
    ['"(approximately)"', text('Best before 15/06/2025 (approximately)', GB), { bb: '16/06/2025' }],
    ['"+/- 2 days"', text('Best before 15/06/2025 +/- 2 days', GB), { bb: '16/06/2025' }],
    ['"± 2 days"', text('Best before 15/06/2025 ± 2 days', GB), { bb: '16/06/2025' }],
  ])('%s', (_what, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });

  // A third review: identifier lines (two barcodes, a GTIN-8 lot, a range or a spaced lot after the barcode, lot types
  // spelled otherwise, serials), date spans, a list joined with a limit of another kind, lots left out or named as the
  // safe one, and lots written in fields the reader does not read.
  it.each<Case>([
    // 1. Two GTINs opening one identifier line: the line is tied to the first GTIN only.
    [
      'two barcodes lead a line (1a)',
      { ...ids(`${EAN2} ${EAN} Lot L555 DLC 15/06/2025`, `${EAN} Lot L777 DLC 16/06/2025`), ...FR },
      { lot: 'L555' },
    ],
    [
      '1b',
      { ...ids(`${EAN2} ${EAN} Lot L555 DLC 15/06/2025`, `${EAN} Lot L777 DLC 16/06/2025`), ...FR },
      { bb: '15/06/2025' },
    ],
    [
      '1c',
      {
        ...ids(
          `${EAN2} ${EAN}$L555$Date limite de consommation$15/06/2025|${EAN}$L777$Date limite de consommation$16/06/2025`,
        ),
        ...FR,
      },
      { lot: 'L555', bb: '15/06/2025' },
    ],
    [
      '1d',
      { ...ids(`${EAN2} / ${EAN}$L555$DLC$15/06/2025`, `${EAN}$L777$DLC$16/06/2025`), ...FR },
      { lot: 'L555', bb: '15/06/2025' },
    ],
    // 2. An 8-digit lot opening a line whose check digit happens to be valid (24061506) ties the line to a phantom product.
    ['2', { ...ids(`${EAN} 24061501 DLC 15/06/2024`, '24061506 DLC 16/06/2024'), ...FR }, { bb: '16/06/2024' }],
    // 3. RappelConso lot slot holding an unlabelled range.
    ['3a', { ...ids(`${EAN}$L555 - L560$Date limite de consommation$15/06/2025`), ...FR }, { lot: 'L557' }],
    ['3b', { ...ids(`${EAN}$L555 à L560$DLC$15/06/2025`), ...FR }, { lot: 'L557' }],
    ['3c', { ...ids(`${EAN} 555 au 560 DLC 15/06/2025`), ...FR }, { lot: '557' }],
    // 4. RappelConso lot written with spaces; the catalogue writes it without.
    ['4', { ...ids(`${EAN}$25 123 A$DLC$15/06/2025`), ...FR }, { lot: '25123A' }],
    // 5. {type,value} lot identifiers whose type is spelled otherwise, value a range.
    ['5a', id('Lot No.', '2401-2410', t('Batch code 2401.', GB)), { lot: '2405' }],
    ['5b', id('Numéro de lot', '2401 à 2410', t('Lot 2401.', FR)), { lot: '2405' }],
    ['5c', id('batch_code', 'L2401-L2410', t('Batch code L2401.', GB)), { lot: 'L2405' }],
    // 6. Serial-number ranges.
    ['6a', id('serial number', '100000-200000', t('Batch code 2401.', GB)), { lot: '150000' }],
    ['6b', t('Lot 2401, S/N 100000-200000'), { lot: '150000' }],
    ['6c', t('Lot 2401. Serial numbers 100000-200000.'), { lot: '150000' }],
    // 7. "between the … and the …" with an article before the second date.
    ['7a', t('DLC entre le 10/06/2025 et le 20/06/2025', FR), { bb: '15/06/2025' }],
    ['7b', t('Best before between the 10/06/2025 and the 20/06/2025', GB), { bb: '15/06/2025' }],
    ['7c', t('Fecha de caducidad entre el 10/06/2025 y el 20/06/2025', ES), { bb: '15/06/2025' }],
    [
      '7d',
      { ...ids(`${EAN}$L555$Date limite de consommation$entre le 10/06/2025 et le 20/06/2025`), ...FR },
      { bb: '15/06/2025' },
    ],
    // 8. A month name, then a range of days, then the year.
    ['8a', t('Best by June 15-30, 2025'), { bb: '06/20/2025' }],
    ['8b', t('Best by June 15 to 30, 2025'), { bb: '06/20/2025' }],
    ['8c', t('Use by dates June 15-30, 2025'), { bb: '06/20/2025' }],
    ['8d', t('Use by July 1st-5th, 2025'), { bb: '07/03/2025' }],
    ['8e', t('Use by July 1 thru 5, 2025'), { bb: '07/03/2025' }],
    // 9-11. Date scopes written in words the reader does not read.
    ['9', t('Best before 30/06/2025. Also all best-before dates in 2025.', GB), { bb: '15/08/2025' }],
    ['10', t('Best before 30/06/2025 and Q3 2025.', GB), { bb: '15/08/2025' }],
    ['11', t('Lot 1234, and all product expiring before 12/31/2025.'), { lot: '5678', bb: '06/15/2025' }],
    // 12-13. A lot list OR another limit (production period, a date for another pack size).
    ['12', t('Lot 1234 and all product manufactured between January 1, 2025 and March 31, 2025.'), { lot: '5678' }],
    ['13a', t('Lot 1234, or any pack with a best before date of 30/06/2025.', GB), { lot: '5678' }],
    ['13b', t('200 g: batch 1234. 400 g: best before 15/06/2025.', GB), { lot: '5678' }],
    [
      '13c',
      t('200 g packs: batch code 1234. 400 g packs: all best before dates up to and including 30/06/2025.', GB),
      { lot: '5678' },
    ],
    // 14-17. Lot lists and ranges in shapes the reader does not read whole.
    ['14', t('Lot 2401 (retail), 2405-2410 (food service).'), { lot: '2407' }],
    ['15', t('Lots 24 001 to 24 050'), { lot: '24020' }],
    ['16', t('Batches 1001 up until 1050', GB), { lot: '1020' }],
    ['17a', t('Lots 1001..1050'), { lot: '1020' }],
    ['17b', t('Lots 1001 → 1050'), { lot: '1020' }],
    // 18. "other than".
    ['18a', t('Lots other than lot 1234 are affected.'), { lot: '5678' }],
    ['18b', t('Les lots autres que le lot 1234 sont concernés.', FR), { lot: '5678' }],
    // 19. "with the exception of" in four languages ("à l'exception" is in NEGATIONS but never matches).
    ['19a', t('With the exception of lot 1234, all product is recalled.'), { lot: '5678' }],
    ['19b', t("À l'exception du lot 1234.", FR), { lot: '5678' }],
    ['19c', t('Mit Ausnahme der Charge 1234.', DE), { lot: '5678' }],
    ['19d', t('A excepción del lote 1234.', ES), { lot: '5678' }],
    // 20. "excepted".
    ['20', t('Lot 1234 excepted; every other lot is recalled.'), { lot: '5678' }],
    // 21. A lot the recall leaves out, in verbs the guard does not know.
    ['21a', t('The recall does not apply to lot 1234.'), { lot: '5678' }],
    ['21b', t('This recall does not include lot 1234.'), { lot: '5678' }],
    ['21c', t('Only lot 1234 is not recalled.'), { lot: '5678' }],
    ['21d', t("Lot 1234 isn't affected."), { lot: '5678' }],
    ['21e', t('Le rappel ne concerne pas le lot 1234.', FR), { lot: '5678' }],
    ['21f', t('Charge 1234 ist nicht vom Rückruf betroffen.', DE), { lot: '5678' }],
    ['21g', t('Die Charge 1234 ist nicht Teil des Rückrufs.', DE), { lot: '5678' }],
    ['21h', t('El lote 1234 no está incluido en la retirada.', ES), { lot: '5678' }],
    // 22. The one lot named is the one left out; the rest are recalled.
    ['22a', t('Lot 1234 was tested negative. The recall covers the remaining lots.'), { lot: '5678' }],
    ['22b', t('Lot 1234 tested negative, all others are recalled.'), { lot: '5678' }],
    ['22c', t('Only lot 1234 may be sold.'), { lot: '5678' }],
    // 23. The notice says several lots are affected and names only the one sampled.
    ['23a', t('Multiple lot codes are affected; lot 1234 tested positive.'), { lot: '5678' }],
    ['23b', t('Mehrere Chargen sind betroffen. Charge 1234 wurde beprobt.', DE), { lot: '5678' }],
    ['23c', t('Several lots are affected, among which lot 1234.'), { lot: '5678' }],
    ['23d', t('Lot 1234 is not the only lot affected.'), { lot: '5678' }],
    // 24-27. Scope written in fields the reader never reads.
    [
      '24',
      {
        product_description: 'Batch code 2401, best before 15/06/2025.',
        measure_details: 'This alert has been updated to include additional batch codes 2405 and 2406.',
        ...GB,
      },
      { lot: '2405' },
    ],
    [
      '25',
      {
        product_description: 'Lot 1234',
        alert_summary: 'Out of an abundance of caution the firm is recalling all lots of the product.',
        ...US,
      },
      { lot: '5678' },
    ],
    [
      '26',
      {
        product_description: 'Batch 2301.',
        product_model_numbers: ['Type 1234, batch numbers 2301, 2302 and 2305'],
        ...DE,
      },
      { lot: '2305' },
    ],
    [
      '27a',
      { product_name: 'Tomme de Savoie lots L555 et L556', product_description: 'Lot L555', ...FR },
      { lot: 'L556' },
    ],
    [
      '27b',
      { product_description: 'Lot 1234', hazard_description: 'Lot 5678 also tested positive.', ...US },
      { lot: '5678' },
    ],
  ])('%s', (_what, notice, row) => {
    expect(judge(notice, row).level).not.toBe('excluded');
  });

  it.each<Case>([
    // A text exactly as long as a store keeps, cut mid-list: what followed is unknown.
    ['a list cut after "through"', text(' Lot numbers 1001, 1002, 1003 through'.padStart(255, 'x')), { lot: '1010' }],
    ['a date list cut after "to"', text(' Best before 15/06/2025 to'.padStart(255, 'x'), GB), { bb: '20/06/2025' }],
  ])('%s (255 characters)', (_what, notice, row) => {
    expect(String(notice.product_description)).toHaveLength(255);
    expect(judge(notice, row).level).not.toBe('excluded');
  });
});

describe('the same notices still prove a row out when it is', () => {
  it.each<Case>([
    ['a batch list', batch('L123, L124'), { lot: 'L999' }],
    ['"Lot … through Lot …"', text('Lot 1001 through Lot 1050.'), { lot: '2000' }],
    ['"lot … au lot …"', text('Lot 1001 au lot 1050.', FR), { lot: '2000' }],
    ['"1234/35/36"', text('Lot 1234/35/36', GB), { lot: '1240' }],
    ['leading zeros', text('Lot 0012345.'), { lot: '12346' }],
    ['"Charge 1234" in the cell', text('Charge 1234.', DE), { lot: 'Charge 5678' }],
    ['an ISO date-time cell', text('Best before 15/06/2025.', GB), { bb: '2025-07-15T00:00:00' }],
    ['two dates in the cell, both out', text('Best before 01/08/2025.', GB), { bb: '01/06/2025, 01/07/2025' }],
    // The new bound and "not all" words leave plain lists and their labels alone.
    ['a plain list, "and" between its lots', text('Lots 1001 and 1002 are affected.'), { lot: '1100' }],
    [
      '"Mindestens haltbar bis", German best-before',
      text('Mindestens haltbar bis 13/04/2026', DE),
      { bb: '14/05/2026' },
    ],
    ['"other lots are not affected"', text('Lots 1001 and 1002. Other lots are not affected.'), { lot: '1100' }],
    ['"Chargennummer" before a list', text('Chargennummer 1001, 1002', DE), { lot: '1100' }],
    ['a date bound the reader reads', text('Best before 15/06/2025 and earlier.', GB), { bb: '20/06/2025' }],
    ['a date range the reader reads', text('Best before 15/06/2025 to 20/06/2025.', GB), { bb: '25/06/2025' }],
    ['"Mrz" read as March', text('MHD 15. Mrz 2026', DE), { bb: '16.03.2026' }],
    ['a plain list that ends the sentence', text('Lot 2514, 12 and 16 oz. packages.', US), { lot: '2600' }],
    ['"other lots are not affected" still proves', text('Lot 1234. Other lots are not affected.'), { lot: '5678' }],
    ['a RappelConso line with one lot', { ...ids(`${EAN} L555 DLC 15/06/2025`), ...FR }, { lot: 'L777' }],
    [
      'a lot repeated in the summary',
      { ...text('Lot 1234.'), alert_summary: 'Lot 1234 is recalled.' },
      { lot: '5678' },
    ],
  ])('%s', (_what, notice, row) => {
    expect(judge(notice, row).level).toBe('excluded');
  });
});
