// Splits a command line as a POSIX shell would for the quoting we print: bare words and '...' with '\''.
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      current += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '\\') {
      current += line[++i] ?? '';
      inWord = true;
    } else if (ch === ' ') {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** The resume command a failed run printed: the indented line after the hint. */
export function printedCommand(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('  recall-feed '));
  if (!line) throw new Error(`no resume command in:\n${stderr}`);
  const words = shellWords(line.trim());
  return words.slice(1);
}
