// Quoting for a POSIX shell: the one function behind the resume hint and the completion scripts.

/**
 * Quotes a word for sh-family shells where needed: plain words stay as they are, anything else is single-quoted. A
 * quote or a backslash is written outside the quotes (`'\''`, `'\\'`), so that fish, whose single quotes read `\\` and
 * `\'` as escapes, reads the same word as bash and zsh.
 */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=,@%+-]+$/.test(word)) return word;
  return `'${word.replace(/['\\]/g, (c) => (c === "'" ? `'\\''` : `'\\\\'`))}'`;
}
