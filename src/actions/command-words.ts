// Splits an --exec command into words as a POSIX shell would, expanding nothing, and fills in {field} placeholders.

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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
  // A record must never choose what runs: a placeholder is filled into arguments only.
  if (hasPlaceholder(words[0] as string)) {
    throw new CommandSyntaxError(`--exec: a {field} cannot be the program, only its arguments: ${words[0]}`);
  }
  const code = codeWithPlaceholder(words);
  if (code !== undefined) {
    throw new CommandSyntaxError(
      `--exec: a {field} cannot be in the code ${code.program} runs, where a recall's text would run as commands: ${code.word}`,
      `pass the field as an argument of the code instead: --exec 'sh -c "notify-send -- \\"\\$1\\"" sh {alert_title}'`,
    );
  }
  return words;
}

const hasPlaceholder = (word: string) => new RegExp(PLACEHOLDER.source).test(word);

/**
 * The programs that run a word of their arguments as code, and where that word is: after a flag (`sh -c`, `python -c`,
 * `perl -e`, `node --eval`), or first of the words that are not options (awk's and sed's program). A placeholder there
 * hands a recall's text to an interpreter, as a shell would; filled in as the script's own argument it stays data.
 */
const SHELL_CODE = /^-[A-Za-z]*c[A-Za-z]*$|^--command$/;
const INTERPRETERS: Record<string, { flag: RegExp; program?: true; value?: RegExp }> = {
  sh: { flag: SHELL_CODE, value: /^[-+]o$/ },
  bash: { flag: SHELL_CODE, value: /^[-+][oO]$/ },
  dash: { flag: SHELL_CODE, value: /^[-+]o$/ },
  zsh: { flag: SHELL_CODE, value: /^[-+]o$/ },
  ksh: { flag: SHELL_CODE, value: /^[-+]o$/ },
  mksh: { flag: SHELL_CODE, value: /^[-+]o$/ },
  ash: { flag: SHELL_CODE, value: /^[-+]o$/ },
  fish: { flag: SHELL_CODE },
  csh: { flag: SHELL_CODE },
  tcsh: { flag: SHELL_CODE },
  pwsh: { flag: /^-(?:c|command|encodedcommand|ec)$/i },
  powershell: { flag: /^-(?:c|command|encodedcommand|ec)$/i },
  python: { flag: /^-[A-Za-z]*c$/ },
  perl: { flag: /^-[A-Za-z]*[eE]$/ },
  ruby: { flag: /^-[A-Za-z]*e$/ },
  node: { flag: /^(?:-e|--eval|-p|--print)$/ },
  php: { flag: /^-r$/ },
  osascript: { flag: /^-e$/ },
  awk: { flag: /^--source$/, program: true, value: /^-[fvF]$/ },
  gawk: { flag: /^(?:--source|-e)$/, program: true, value: /^-[fvFi]$/ },
  mawk: { flag: /^--source$/, program: true, value: /^-[fvF]$/ },
  sed: { flag: /^(?:-e|--expression)$/, program: true, value: /^-[fl]$/ },
};

/** `python3.12` is python, `/usr/bin/bash` bash. */
const programName = (word: string) => (word.split('/').pop() ?? word).toLowerCase().replace(/[\d.]+$/, '');

/** The first interpreter in the command (after `env`, `nice`, `timeout 5`, `sudo`…) whose code holds a placeholder. */
function codeWithPlaceholder(words: readonly string[]): { program: string; word: string } | undefined {
  for (const [at, word] of words.entries()) {
    const program = programName(word);
    const rule = INTERPRETERS[program];
    if (rule === undefined) continue;
    const code = codeWord(rule, words.slice(at + 1));
    if (code !== undefined && hasPlaceholder(code)) return { program, word: code };
  }
  return undefined;
}

/** The word of `args` an interpreter runs as code (the flag's own when attached: `--eval=…`, `-c…`), if any. */
function codeWord(rule: (typeof INTERPRETERS)[string], args: readonly string[]): string | undefined {
  let codeNext = false;
  let valueNext = false;
  let scriptGiven = false;
  for (const arg of args) {
    if (codeNext) {
      if (arg === '--') continue;
      return arg;
    }
    if (valueNext) {
      valueNext = false;
      continue;
    }
    if (arg === '--' || !/^[-+]./.test(arg)) return rule.program && !scriptGiven && arg !== '--' ? arg : undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      if (rule.flag.test(arg.slice(0, eq))) return arg;
      continue;
    }
    if (rule.flag.test(arg)) {
      codeNext = true;
      scriptGiven = true;
    } else if (rule.value?.test(arg)) {
      valueNext = true;
      // `-f file`: awk's or sed's program is in a file, so no word of the command is one.
      if (arg === '-f') scriptGiven = true;
    } else if (/^-[A-Za-z]/.test(arg) && rule.flag.test(arg.slice(0, 2))) {
      // `-cCODE`, `-eCODE`: attached to its flag.
      return arg;
    }
  }
  return undefined;
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

/** Each word with its {field}s replaced: the value stays inside its one argument, whatever it holds. */
/** The field names the command's {placeholders} ask for, each once, in order. */
export function placeholderNames(words: readonly string[]): string[] {
  return [...new Set(words.flatMap((w) => [...w.matchAll(PLACEHOLDER)].map((m) => m[1] as string)))];
}

export function fillWords(words: readonly string[], record: Record<string, unknown>): string[] {
  return words.map((w) => w.replace(PLACEHOLDER, (_, name: string) => fieldText(record[name])));
}
