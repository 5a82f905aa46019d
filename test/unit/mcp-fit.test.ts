// An MCP answer made to fit its budget: texts cut and marked, links never cut, lists cut before texts get short.
import { describe, expect, it } from 'vitest';
import { fitted } from '../../src/mcp/fit.js';

const weight = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** A link of exactly `length` characters: an https URL whose query repeats `q=1&`. */
function link(length: number, path = '/notice'): string {
  const head = `https://example.gov${path}?`;
  return (head + 'q=1&'.repeat(length)).slice(0, length);
}

describe('fitted: links', () => {
  it('keeps a link whole while the texts around it are cut', () => {
    const url = link(536);
    const value = { recall: { source_url: url, product_description: 'words '.repeat(50_000) } };
    const fit = fitted(value, 20_000);
    expect(fit.value.recall.source_url).toBe(url);
    expect(fit.value.recall.product_description).toMatch(/^words words .* \[…cut: [\d,]+ more characters\]$/s);
    expect(fit.cut).toEqual(['recall.product_description: 300,000 characters, the first 5000 kept']);
    expect(weight(fit.value)).toBeLessThanOrEqual(20_000);
  });

  it('drops a list item before it cuts a link in the list, and says which list', () => {
    const images = Array.from({ length: 100 }, (_, i) => link(1_500, `/image/${i}`));
    const fit = fitted({ images }, 30_000);
    expect(fit.value.images.length).toBeGreaterThan(0);
    expect(fit.value.images.length).toBeLessThan(images.length);
    // Each one kept is whole, in its place.
    expect(fit.value.images).toEqual(images.slice(0, fit.value.images.length));
    expect(fit.cut).toEqual([`images: 100 items, the first ${fit.value.images.length} kept`]);
    expect(weight(fit.value)).toBeLessThanOrEqual(30_000);
  });

  it('drops a link over 8 KB whole, marked, rather than cut it', () => {
    const huge = link(20_000);
    const fit = fitted({ source_url: huge, text: 'x'.repeat(30_000) }, 12_000);
    expect(fit.value.source_url).toBe('[…link dropped: 20,000 characters]');
    expect(fit.cut).toContain('source_url: a link of 20,000 characters, dropped whole');
  });

  it('a text with spaces in it is a text, cut even when it starts as a link', () => {
    const text = `https://example.gov/notice said ${'more '.repeat(5_000)}`;
    const fit = fitted({ text }, 6_000);
    expect(fit.value.text).toMatch(/^https:\/\/example\.gov\/notice said more .* \[…cut: [\d,]+ more characters\]$/s);
  });
});

describe('fitted: the order of the cuts', () => {
  it('cuts a long list to 200 items before it cuts texts to 300 characters', () => {
    // 3,000 links of 1,500 characters (4.5 MB) beside one long text: the links alone are over 1 MB at 1,000 items.
    const images = Array.from({ length: 3_000 }, (_, i) => link(1_500, `/image/${i}`));
    const description = 'Présence de salmonelles. '.repeat(220_000);
    const fit = fitted({ recall: { product_description: description, images } });
    expect(fit.value.recall.images).toEqual(images.slice(0, 200));
    expect(fit.value.recall.product_description).toBe(
      `${description.slice(0, 1_000)} […cut: ${(description.length - 1_000).toLocaleString('en-US')} more characters]`,
    );
    expect(fit.cut).toEqual([
      `recall.product_description: ${description.length.toLocaleString('en-US')} characters, the first 1000 kept`,
      'recall.images: 3000 items, the first 200 kept',
    ]);
    expect(weight(fit.value)).toBeLessThanOrEqual(1_000_000);
  });
});
