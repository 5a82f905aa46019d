// The page frame and tables the digest and the report share (src/output/markup-document.ts): hostile text stays text.
import { describe, expect, it } from 'vitest';
import { htmlPage, htmlTable, markdownTable } from '../../src/output/markup-document.js';

describe('htmlPage', () => {
  it('escapes the title, inlines the style and loads nothing', () => {
    const page = htmlPage('<script>x</script> & co', 'p{color:red}', '<p>body</p>');
    expect(page).toContain('<title>&lt;script&gt;x&lt;/script&gt; &amp; co</title>');
    expect(page).toContain('<style>p{color:red}</style>');
    expect(page).toContain('<body>\n<p>body</p>\n</body>');
    expect(page.startsWith('<!doctype html>\n')).toBe(true);
    expect(page).not.toMatch(/<script|<link|src=/);
  });
});

describe('htmlTable', () => {
  it('escapes every header and cell', () => {
    expect(htmlTable(['a<b'], [['"x"', "it's"]], 'summary')).toBe(
      '<table class="summary">\n<tr><th>a&lt;b</th></tr>\n<tr><td>&quot;x&quot;</td><td>it&#39;s</td></tr>\n</table>',
    );
    expect(htmlTable(['h'], [])).toBe('<table>\n<tr><th>h</th></tr>\n\n</table>');
  });
});

describe('markdownTable', () => {
  it('keeps each cell one line and its pipes text', () => {
    expect(markdownTable(['a|b', 'c'], [['x\ny', '*z*']])).toBe('| a\\|b | c |\n|---|---|\n| x y | \\*z\\* |');
  });
});
