// Country names and codes as --country and stats --by country read them: current ISO codes only, whole names before
// their parts, the common short forms. Every expectation is written by hand.
import { describe, expect, it } from 'vitest';
import { countriesIn, countryCode, countryFieldParts, countryNameClashes } from '../../src/filters/countries.js';

describe('countryCode', () => {
  it.each([
    ['France', 'FR'],
    ['Frankreich', 'FR'],
    ['Francia', 'FR'],
    ['United Kingdom', 'GB'],
    ['Royaume-Uni', 'GB'],
    ['UK', 'GB'],
    ['uk', 'GB'],
    ['Russie', 'RU'],
    ['Russland', 'RU'],
    ['Rusia', 'RU'],
    ['Serbia', 'RS'],
    ['Benin', 'BJ'],
    ['Burkina Faso', 'BF'],
    ['Timor-Leste', 'TL'],
    ['Congo-Kinshasa', 'CD'],
    ['Germany', 'DE'],
    ['Myanmar', 'MM'],
    ['Vietnam', 'VN'],
    ['Yemen', 'YE'],
    ['Zimbabwe', 'ZW'],
    ['Vanuatu', 'VU'],
    ['Curaçao', 'CW'],
  ])('%s is %s (a current code, never a withdrawn one)', (name, code) => {
    expect(countryCode(name)).toBe(code);
  });

  it.each(['FX', 'SU', 'YU', 'DD', 'ZR', 'ZZ', 'XA'])('%s, withdrawn or no country, is no code', (code) => {
    expect(countryCode(code)).toBeUndefined();
  });

  it.each([
    ['Bosnia and Herzegovina', 'BA'],
    ['Bosnia & Herzegovina', 'BA'],
    ['Trinidad and Tobago', 'TT'],
    ['Antigua and Barbuda', 'AG'],
    ['Saint Kitts and Nevis', 'KN'],
    ['St. Kitts & Nevis', 'KN'],
    ['Hong Kong', 'HK'],
    ['Macau', 'MO'],
    ['Macao', 'MO'],
    ["Côte d'Ivoire", 'CI'],
    ['Cote d’Ivoire', 'CI'],
    ['The Netherlands', 'NL'],
    ['PR China', 'CN'],
    ['P.R. China', 'CN'],
    ['Saint Vincent and the Grenadines', 'VC'],
    ['South Georgia and the South Sandwich Islands', 'GS'],
    ['Democratic Republic of the Congo', 'CD'],
    ['DR Congo', 'CD'],
    ['Congo', 'CG'],
    ['East Timor', 'TL'],
    ['Lao PDR', 'LA'],
    ['Holy See', 'VA'],
  ])('%s is %s', (name, code) => {
    expect(countryCode(name)).toBe(code);
  });

  it.each(['constructor', 'toString', '__proto__'])('%s, a name every object has, is no country', (name) => {
    expect(countryCode(name)).toBeUndefined();
  });

  it('no name belongs to two current codes', () => {
    expect(countryNameClashes()).toEqual([]);
  });
});

describe('countriesIn', () => {
  it.each([
    ['Bosnia and Herzegovina', ['BA']],
    ['Bosnia & Herzegovina', ['BA']],
    ['Made in Trinidad and Tobago', ['TT']],
    ['Antigua and Barbuda, China', ['AG', 'CN']],
    ['Saint Kitts and Nevis', ['KN']],
    ['Made in Germany and Poland', ['DE', 'PL']],
    ['China & Vietnam', ['CN', 'VN']],
    ['France / UK', ['FR', 'GB']],
    ['Hong Kong, China', ['HK', 'CN']],
    ['Trinidad and Tobago and Jamaica', ['TT', 'JM']],
    ['Antigua & Barbuda and Jamaica', ['AG', 'JM']],
    ['Bosnia and Herzegovina and Croatia', ['BA', 'HR']],
    ['Germany & Poland & France', ['DE', 'PL', 'FR']],
    ['Fabriqué en France', ['FR']],
    ['Fabrique en France', ['FR']],
  ])('%s names %j', (value, codes) => {
    expect(countriesIn(value)).toEqual(codes);
  });
});

describe('countryFieldParts', () => {
  it('keeps a country named with "&" whole, and splits parts that name none', () => {
    expect(countryFieldParts('Bosnia & Herzegovina')).toEqual(['Bosnia & Herzegovina']);
    expect(countryFieldParts('Acme & Co, China')).toEqual(['Acme ', ' Co', ' China']);
  });
});
