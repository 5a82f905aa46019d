// Text made safe inside the HTML and Markdown documents (digest, e-mail, report): checked against hand-written results.
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown } from '../../src/output/markup.js';

describe('escapeHtml', () => {
  it('escapes what HTML acts on, in text and quoted attributes, and drops control codes but tab and line breaks', () => {
    expect(escapeHtml(`<a href="x" title='y'>R&D</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;R&amp;D&lt;/a&gt;',
    );
    expect(escapeHtml('a\u001b[2Jb\u0007c\u009bd\u007fe\tf\ng')).toBe('a[2Jbcde\tf\ng');
    // Bidi controls and characters that show nothing go; a carriage return that ends no line is a space.
    expect(escapeHtml('a\u202eb\u200bc\u2066d\re\r\nf')).toBe('abcd e\r\nf');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(42)).toBe('42');
  });
});

describe('escapeMarkdown', () => {
  it('gives one line with every character Markdown acts on escaped, and no control codes', () => {
    expect(escapeMarkdown('# [click](http://x) *a* _b_ `c` | d')).toBe(
      '\\# \\[click\\]\\(http\\://x\\) \\*a\\* \\_b\\_ \\`c\\` \\| d',
    );
    expect(escapeMarkdown('line one\r\nline two\nthree\tfour')).toBe('line one line two three four');
    expect(escapeMarkdown('x\u001b]0;title\u0007y')).toBe('x\\]0;titley');
    expect(escapeMarkdown('a\u202eb\u200bc')).toBe('abc');
    expect(escapeMarkdown(undefined)).toBe('');
  });
});
