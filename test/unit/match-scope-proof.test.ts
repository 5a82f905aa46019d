// `excluded` only on proof: each wording from issue 32, as the notices write it, never lets a recalled row through.
import { describe, expect, it } from 'vitest';
import { DE, FR, GB, judge, US } from '../helpers/scope-judge.js';

describe('a lot or date the notice names is in scope, however it is written', () => {
  it.each([
    [
      'RappelConso identifier line, lot and best-before',
      { standard_identifiers_and_barcodes: ['3564709006031 V028 Date de durabilité minimale 04/04/2021'], ...FR },
      { lot: 'V028', bb: '04/04/2021' },
    ],
    [
      'RappelConso line in production_dates',
      { production_dates: '3564709006031 V028 Date de durabilité minimale 04/04/2021', ...FR },
      { lot: 'V028', bb: '04/04/2021' },
    ],
    [
      'Quenelles: a name between the barcode and the lot',
      {
        production_dates:
          '3292590825263 Quenelles nature : lot L10500S Date de durabilité minimale 21/08/2022 3292590825270 Quenelles brochet : lot L10501S Date de durabilité minimale 22/08/2022',
        ...FR,
      },
      { lot: 'L10500S', bb: '21/08/2022', ean: '3292590825263' },
    ],
  ])('%s', (_, notice, row) => {
    const m = judge(notice, row);
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('the 17th of 18 listed lots, far past any window', () => {
    const lots = Array.from({ length: 18 }, (_, i) => `L${String(20_000 + i * 7)}`);
    const m = judge({ product_description: `Lots concernés : ${lots.join(', ')}.`, ...FR }, { lot: lots[16] });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
    // And a lot the list does not hold is still excluded: the whole list was read.
    expect(judge({ product_description: `Lots concernés : ${lots.join(', ')}.`, ...FR }, { lot: 'L99999' }).level).toBe(
      'excluded',
    );
  });

  it('row 80 of a CPSC-style lot table', () => {
    const rows = Array.from(
      { length: 100 },
      (_, i) => `${String(1000 + i)}K${i % 10} ${String((i % 12) + 1).padStart(2, '0')}/2023`,
    );
    const text = `The UPC and lot numbers are printed on the bottle. UPC Lot Number Manufacturing Date 850027975177 ${rows.join(' ')}`;
    const m = judge({ product_description: text, ...US }, { lot: '1079K9', ean: '850027975177' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('a best-before date listed long after its label', () => {
    const dates = Array.from({ length: 20 }, (_, i) => `${String(i + 1).padStart(2, '0')}/05/2025`);
    const m = judge({ production_dates: `Best before dates: ${dates.join(', ')}`, ...GB }, { bb: '18/05/2025' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it.each([
    ['Lots 1001 au 1050', FR],
    ['Lots 1001-1050', US],
    ['Lot numbers 1001 through 1050', US],
    ['Chargen 1001 bis 1050', DE],
  ])('a lot range: "%s" holds lot 1020', (text, geo) => {
    const m = judge({ product_description: text, ...geo }, { lot: '1020' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it.each([
    ["'Best By' date of 08/25/14 or prior", US, '2014-06-01'],
    ['All best before dates up to and including 30 June 2025', GB, '2025-03-01'],
    ["DDM : toutes les dates jusqu'au 30/06/2025", FR, '2025-03-01'],
    ['MHD bis einschließlich 30.06.2025', DE, '2025-03-01'],
    // FSIS, Pasty Oven alert: a comma between the date and its bound.
    [
      '“The Pasty Oven Pasty WITH CHICKEN & CHEESE” with best by dates of December 11, 2025, and prior.',
      US,
      '11/20/2025',
    ],
    ['use by dates of 01/05/2025, or later', US, '2025-02-01'],
  ])('an open bound: "%s" holds a date on its open side', (text, geo, bb) => {
    const m = judge({ product_description: text, ...geo }, { bb });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('date order: a US "Best By 01/02/2025" and the catalogue cell 01/02/2025 are the same day under some reading', () => {
    const m = judge({ product_description: 'Best By 01/02/2025', ...US }, { bb: '01/02/2025' });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it('a code written in parts ("lot code P864 4893 23241950", Hanover soup) names the row that writes it whole', () => {
    const text =
      '15-oz. metal cans containing “HANOVER SOUP CLASSICS Chicken Pot Pie” with lot code P864 4893 23241950 printed';
    expect(judge({ production_dates: text, ...US }, { lot: 'P864 4893 23241950' }).scope).toBe('in-scope');
    expect(judge({ production_dates: text, ...US }, { lot: 'P864489323241950' }).scope).toBe('in-scope');
    // A cell's parts are each a lot it may be ("L123 L124"): one the notice names keeps the row in scope, the safe error.
    expect(judge({ production_dates: text, ...US }, { lot: 'P865 4893 23241950' }).scope).toBe('in-scope');
    expect(judge({ production_dates: text, ...US }, { lot: 'P865 4894 23241951' }).level).toBe('excluded');
  });

  it.each([
    ['Lot 2104 B', '2104 B'],
    ['Lot L35380', '35380'],
    ['Lot 35380', 'L35380'],
    ['Lot L35381', 'L35380 / L35381'],
  ])('lot spelling: "%s" names the row lot %s', (text, lot) => {
    const m = judge({ product_description: text, ...FR }, { lot });
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });

  it.each([
    ['Code Date: 11/15/2013', { bb: '11/15/2013' }],
    ['0 11596 85161 7= 11/1/2013 - 11/29/2013', { bb: '11/15/2013' }],
    ['Sell by 12/01/2024', { bb: '12/01/2024' }],
    ['Use by 05/06/2025', { bb: '05/06/2025' }],
    ['“SAMSA HALAL” with “USE BEFORE” dates of 01/02/25 through 02/22/25.', { bb: '01/15/2025' }],
    ['Used by 05/06/2025', { bb: '05/06/2025' }],
    ['Lot Code: 4521, 4522', { lot: '4522' }],
    ['MFG Code 9981', { lot: '9981' }],
    ['“Johnsonville BRATS CHEDDAR Bratwurst” and the package code B9FOD.', { lot: 'B9FOD' }],
    ['All codes', { lot: 'ZZ1' }],
    ['All units with UPC 0 11596 85161 7', { lot: 'ZZ1' }],
    ['4521, 4522, 4523', { lot: '4523' }],
  ])('wording read: "%s"', (text, row) => {
    const m = judge({ production_dates: text, ...US }, row);
    expect([m.level, m.scope]).toEqual(['match', 'in-scope']);
  });
});

describe('a row is excluded only on proof', () => {
  it.each([
    ['fast charge 65W', 'A1'],
    ['vendu en lot 12 pots', 'L5'],
    ['Lot de 6 bouteilles', 'L5'],
  ])('words that are no lot ("%s") prove nothing about lot %s', (text, lot) => {
    const m = judge({ product_description: text, ...FR }, { lot });
    expect(m.level).toBe('match');
    expect(m.scope).toBe('unknown');
  });

  it('a limit the reader does not model ("sauf", "except") leaves the row to verify, quoting it', () => {
    const m = judge({ product_description: 'Tous les lots sauf le lot 1235', ...FR }, { lot: '1235' });
    expect(m.level).toBe('match');
    expect(m.scope).not.toBe('out-of-scope');
    const n = judge({ product_description: 'Lots 1234 and 1236, except 1235', ...US }, { lot: '1235' });
    expect([n.level, n.scope]).toEqual(['match', 'unknown']);
    expect(n.scopeEvidence).toMatch(/^verify lot\/date, the notice's scope was not read whole: /);
    expect(n.scopeEvidence).toContain('product_description: "except 1235"');
  });

  it('a bound the reader cannot tie to its date ("(and prior)") leaves a later row to verify, quoting it', () => {
    const m = judge(
      { production_dates: 'best by dates of December 11, 2025 (and prior)', ...US },
      { bb: '11/20/2025' },
    );
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
    expect(m.scopeEvidence).toContain('and prior');
  });

  it('a list cut off at the end of its field proves nothing past the cut (FSIS Yats, stored at 255 characters)', () => {
    const cut = 'Cajas de 60-lb. … de “YATS DRUNKEN CHICKEN” con códigos de lote 4074, 4102, 4130, 41';
    const m = judge({ production_dates: cut, ...US }, { lot: '4236' });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
    expect(m.scopeEvidence).toContain('lote 4074, 4102, 4130, 41');
    expect(judge({ production_dates: 'with lot codes 4074, 4102, 4130,', ...US }, { lot: '4236' }).scope).toBe(
      'unknown',
    );
    expect(judge({ production_dates: 'Best By 01/02/2025, 02/02/2025,', ...US }, { bb: '03/03/2025' }).scope).toBe(
      'unknown',
    );
    // One value before a shorter last one is enough: a lot code, and a year cut to two digits (Allen Family Foods).
    expect(judge({ production_dates: 'and lot codes 025093, 0', ...US }, { lot: '025100' }).scope).toBe('unknown');
    const allen = 'with lot codes E225077, E225083 and “best before by dates” of 03/18/2026, 03/20/20';
    expect(judge({ production_dates: allen, ...US }, { bb: '03/20/2026' }).scope).toBe('unknown');
    // A field as long as a store's limit (255 characters) that ends mid-sentence may have been cut after a whole value.
    const cut255 = `${'x'.repeat(255 - 'Lot codes 4074, 4102'.length - 1)} Lot codes 4074, 4102`;
    expect(cut255).toHaveLength(255);
    expect(judge({ production_dates: cut255, ...US }, { lot: '4236' }).scope).toBe('unknown');
    expect(judge({ production_dates: `${cut255.slice(1)}.`, ...US }, { lot: '4236' }).level).toBe('excluded');
    // The whole list, closed by its full stop, or its last value as long as the others: proof.
    expect(judge({ production_dates: 'with lot codes 4074, 4102, 4130.', ...US }, { lot: '4236' }).level).toBe(
      'excluded',
    );
    expect(judge({ production_dates: 'with lot codes 4074, 4102, 4130', ...US }, { lot: '4236' }).level).toBe(
      'excluded',
    );
    // A listed value is in scope however the list ends.
    expect(judge({ production_dates: cut, ...US }, { lot: '4102' }).scope).toBe('in-scope');
  });

  it('a list that goes on elsewhere ("see attached list", "etc.") proves nothing', () => {
    for (const text of ['Lots 1234, 1235, etc.', 'Lot 1234 and others: voir liste des produits en pièce jointe'])
      expect(judge({ production_dates: text, ...FR }, { lot: '9999' }).level).toBe('match');
  });

  it('a lot scope and a row with only a date: unknown, saying what to verify', () => {
    const m = judge({ product_description: 'Lot 1234 only', ...FR }, { bb: '04/04/2021' });
    expect([m.level, m.scope]).toEqual(['match', 'unknown']);
    expect(m.scopeEvidence).toMatch(/^verify lot, /);
  });

  it('a sure list that does not hold the row: excluded, with the list as evidence and the reading in --explain', () => {
    const m = judge({ product_description: 'Lot Code: 4521, 4522. Use by 12/01/2024', ...US }, { lot: '7777' });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
    expect(m.scopeEvidence).toBe('product_description: "Lot Code: 4521, 4522"');
    expect(m.explain).toContain('scope read: lot 4521, lot 4522, use-by 2024-12-01');
    expect(m.explain).toContain('row lot "7777"');
  });

  it('"ranging from … through …" is one range (FSIS, Pruski\'s jerky), not two open bounds that hold every date', () => {
    const text = (label: string) =>
      `“Pruski’s Market Beef Jerky” and a “${label}” date ranging from 03/21/24 through 05/09/24 represented on the back`;
    expect(judge({ production_dates: text('SELL BY'), ...US }, { bb: '04/10/2024' }).scope).toBe('in-scope');
    // A sell-by date is not the pack date a catalogue's best-before column holds: a date after it is to verify, and
    // no match, since the notice names the dates it covers and the row's is none of them.
    const later = judge({ production_dates: text('SELL BY'), ...US }, { bb: '05/20/2024' });
    expect([later.level, later.reason, later.scope]).toEqual(['possible', 'barcode', 'unknown']);
    expect(later.scopeEvidence).toMatch(/^verify date, the row's is none the notice names, and a sell-by/);
    expect(later.explain).toMatch(/; possible, not match: the row's date is none the notice names$/);
    const m = judge({ production_dates: text('BEST BY'), ...US }, { bb: '05/20/2024' });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
  });

  it('a row dated none of the sell-by dates a notice names is possible, to verify; one it names is a match', () => {
    // An FDA notice of the second corpus names two sell-by dates, each in its own sentence.
    const notice = { product_description: 'Sell by 11/3/2025. Sell by 11/4/2025.', ...US };
    const other = judge(notice, { bb: '11/12/2025' });
    expect([other.level, other.scope]).toEqual(['possible', 'unknown']);
    expect(other.scopeEvidence).toContain('product_description: "Sell by 11/3/2025"');
    const named = judge(notice, { bb: '11/04/2025' });
    expect([named.level, named.scope]).toEqual(['match', 'in-scope']);
    // A row without a date, or a lot only, stays a match: nothing the notice names speaks of it.
    expect(judge(notice, {}).level).toBe('match');
    expect(judge(notice, { lot: 'A1234' }).level).toBe('match');
    // Sell-by dates with a part left unread prove nothing about what the rest names: still a match, to verify.
    expect(
      judge({ ...notice, product_description: 'Sell by 11/3/2025, 11/4/2025, etc.' }, { bb: '11/12/2025' }).level,
    ).toBe('match');
  });

  describe('dates with no year, as FSIS writes them ("Best By dates of 21 FEB, 23 FEB, 25 FEB")', () => {
    // Fresh & Ready Foods' Chicken Caesar Wrap.
    const lpk = {
      production_dates:
        '10-oz. clear clamshell containers containing “Chicken Caesar Wrap” with Best By dates of 21 FEB, 23 FEB, 25 FEB, and lot codes LPK1WA046, LPK1WA048, LPK1WA050 printed on the label.',
      ...US,
    };

    it('a row whose month and day none of them has, in any year, is out; one that has them is in, in any year', () => {
      const out = judge(lpk, { lot: 'LPK1WA053', bb: '02/28/2025' });
      expect([out.level, out.scope]).toEqual(['excluded', 'out-of-scope']);
      expect(out.explain).toContain('best-before --02-21 (any year)');
      expect(judge(lpk, { bb: '02/22/2025' }).level).toBe('excluded');
      expect(judge(lpk, { lot: 'LPK1WA048', bb: '02/23/2025' }).scope).toBe('in-scope');
      // The notice did not say which year: another year's 23 February is not proved out.
      expect(judge(lpk, { bb: '02/23/2026' }).scope).toBe('in-scope');
    });

    it('a range over the new year holds its January days; a bound on a yearless date proves nothing', () => {
      const range = { production_dates: 'Use by dates of Dec 28 - Jan 3 printed on the tray.', ...US };
      expect(judge(range, { bb: '01/02/2025' }).scope).toBe('in-scope');
      expect(judge(range, { bb: '12/30/2024' }).scope).toBe('in-scope');
      expect(judge(range, { bb: '01/10/2025' }).level).toBe('excluded');
      const bound = judge(
        { production_dates: 'Best By dates through FEB 25 on the label.', ...US },
        { bb: '03/01/2025' },
      );
      expect([bound.level, bound.scope]).toEqual(['match', 'unknown']);
    });

    it('a yearless start takes its end\'s year ("FEB 21 - FEB 25, 2025"); "Jan 20 24" is no yearless date', () => {
      const mixed = { production_dates: 'Best By FEB 21 - FEB 25, 2025 on the label.', ...US };
      expect(judge(mixed, { bb: '02/23/2025' }).scope).toBe('in-scope');
      expect(judge(mixed, { bb: '02/23/2026' }).level).toBe('excluded');
      // "may" is a word too: "Lots 1 and 2 may contain" names lots 1 and 2, no date.
      expect(judge({ production_dates: 'Lots 1 and 2 may contain metal.', ...US }, { lot: '2' }).scope).toBe(
        'in-scope',
      );
      const kirkland = {
        production_dates: 'with Use / Freeze by date Jan 20 24 and a sticker with lot number 264 - 4.',
        ...US,
      };
      expect(judge(kirkland, { bb: '01/20/2026' }).level).toBe('match');
    });
  });

  it('FSIS\'s hyphenated sizes ("1.75-oz.", "19-oz.") are no lots, not even maybe ones', () => {
    const text = '1.75-oz., 2.75-oz., and 19-oz. packages containing “Johnsonville BRATS CHEDDAR” and Lot 4521.';
    const m = judge({ production_dates: text, ...US }, { lot: '7777' });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
    expect(m.explain).toContain('scope read: lot 4521;');
    // "Lot 12-A": a hyphen before one letter stays a lot's.
    expect(judge({ production_dates: 'Lot 12-A', ...US }, { lot: '12-A' }).scope).toBe('in-scope');
  });

  it('FSIS\'s "package code" lists the lots: another package code is out (Johnsonville brats)', () => {
    const text =
      '19-oz. Sealed firm tray packages containing five pieces of “Johnsonville BRATS CHEDDAR Bratwurst” and the package code B9FOD.';
    expect(judge({ production_dates: text, ...US }, { lot: 'C2H1A' }).level).toBe('excluded');
  });

  it('FSIS\'s "USE BEFORE" dates are the pack\'s: a date after them is out (SAMSA HALAL)', () => {
    const text =
      '16-oz. plastic-wrapped tray packages containing “SAMSA HALAL” with “USE BEFORE” dates of 01/02/25 through 02/22/25.';
    expect(judge({ production_dates: text, ...US }, { bb: '03/13/2025' }).level).toBe('excluded');
  });

  it('a date outside every reading of a US notice, both readings of the cell outside: excluded', () => {
    const m = judge({ product_description: 'Best By 01/02/2025', ...US }, { bb: '03/04/2025' });
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
  });
});

describe('what is not scope text', () => {
  it('a sale or production word followed by a number in a title ("sold via AliExpress (2611-0085)") leaves nothing unread', () => {
    const m = judge(
      {
        alert_title: 'Product Safety Report: Electric Scooters sold via AliExpress (2611-0085)',
        product_description: 'Lot 4521',
        ...GB,
      },
      { lot: '7777' },
    );
    expect([m.level, m.scope]).toEqual(['excluded', 'out-of-scope']);
  });
});
