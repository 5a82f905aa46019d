// shellQuote's words read back the same in bash (run for real) and under fish's quoting rules (inside single quotes
// fish reads `\\` and `\'` as escapes; written out here from fish's documentation, not from the code under test).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/runtime/shell-quote.js';

/** A line of single-quoted and bare words read as fish reads it (one word, no spaces outside quotes). */
function fishWord(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      for (i++; i < line.length && line[i] !== "'"; i++) {
        if (line[i] === '\\' && (line[i + 1] === '\\' || line[i + 1] === "'")) i++;
        out += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated quote in ${line}`);
    } else if (ch === '\\') out += line[++i] ?? '';
    else out += ch;
  }
  return out;
}

const WORDS = ['a\\b', 'a\\\\b', 'ends\\', "it's", "\\'", 'plain-word', 'with space', '-abc_DEF', "x'\\'y"];

describe('shellQuote', () => {
  it.each(WORDS)('%s reads back the same in bash', (word) => {
    expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' })).toBe(word);
  });

  it.each(WORDS)('%s reads back the same under fish quoting', (word) => {
    expect(fishWord(shellQuote(word))).toBe(word);
  });
});
