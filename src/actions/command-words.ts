// Splits an --exec command into words as a POSIX shell would, expanding nothing, and fills in {field} placeholders.

import { PLACEHOLDER, placeholderRefusal } from './exec-guard.js';

export class CommandSyntaxError extends Error {
  override name = 'CommandSyntaxError';
  /** What to write instead, when the general advice on quoting is not it. */
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/**
 * Quotes and backslashes are honoured ('…' literal, "…" with \" \\ \$ \` escapes, \x outside quotes);
 * nothing is expanded: no $VAR, no globs, no ~, no ; | & or redirections: those are plain characters.
 */
export function splitWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const fail = (what: string) => {
    throw new CommandSyntaxError(`--exec: ${what} in: ${command}`);
  };
  while (i < command.length) {
    const ch = command[i] as string;
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) fail('unterminated single quote');
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1] as string)) i++;
        word += command[i];
        i++;
      }
      if (i >= command.length) fail('unterminated double quote');
      inWord = true;
      i++;
    } else if (ch === '\\') {
      if (i + 1 >= command.length) fail('a trailing backslash');
      word += command[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new CommandSyntaxError('--exec needs a command');
  const refusal = placeholderRefusal(words);
  if (refusal) throw new CommandSyntaxError(refusal.message, refusal.hint);
  return words;
}

/** A field as argument text: arrays joined with ", ", objects as JSON, null and absent as ''; NUL bytes dropped. */
export function fieldText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (Array.isArray(value)) text = value.map(fieldText).join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return text.replace(/\0/g, '');
}

/** The field names the command's {placeholders} ask for, each once, in order. */
export function placeholderNames(words: readonly string[]): string[] {
  return [...new Set(words.flatMap((w) => [...w.matchAll(PLACEHOLDER)].map((m) => m[1] as string)))];
}

/** Each word with its {field}s replaced: the value stays inside its one argument, whatever it holds. */
export function fillWords(words: readonly string[], record: Record<string, unknown>): string[] {
  return words.map((w) => w.replace(PLACEHOLDER, (_, name: string) => fieldText(record[name])));
}
