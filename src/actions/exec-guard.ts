// Where a {field} may not go in an --exec command: the program, the code a shell or interpreter runs, its options,
// or anywhere in a command whose program runs another program or a shell command its arguments name.

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export const hasPlaceholder = (word: string) => new RegExp(PLACEHOLDER.source).test(word);

/** `python3.12` is python, `/usr/bin/bash` bash, `sqlite3` sqlite. */
export const programName = (word: string) => (word.split('/').pop() ?? word).toLowerCase().replace(/[\d.]+$/, '');

/**
 * Programs that run a program, a shell command or code their arguments name or write, each with options of its own
 * (`env -S`, `timeout 5 {x}`, `flock -c`, `ssh host`, `xargs`, `sudo`, `find -exec`, `git -c`, `make`, a database
 * shell's `.shell` or `\!`). Their words are not read here: a placeholder anywhere in such a command is refused.
 */
const RUNNERS = new Set(
  (
    'env timeout nice nohup stdbuf setsid sudo doas su runuser sg newgrp chroot ionice taskset chrt unshare nsenter ' +
    'prlimit numactl cgexec strace ltrace valgrind gdb time xargs parallel flock watch script ssh busybox firejail ' +
    'systemd-run at batch exec command eval torsocks proxychains fakeroot catchsegv unbuffer expect tmux screen make ' +
    'git find vim vi nvim emacs sqlite psql mysql docker podman kubectl npx npm pnpm yarn bunx uvx pipx deno'
  ).split(' '),
);

/** Interpreters whose program is their first operand and whose options may come anywhere (GNU getopt): awk, sed. */
const PROGRAM_OPERAND = new Set(['awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed']);

/** Interpreters that run the word after a flag as code (`sh -c`, `python -c`, `perl -e`, `node --eval`), else a script file. */
const SHELL_CODE = /^-[A-Za-z]*c[A-Za-z]*$|^--command$/;
const CODE_FLAGS: Record<string, RegExp> = {
  sh: SHELL_CODE,
  bash: SHELL_CODE,
  dash: SHELL_CODE,
  zsh: SHELL_CODE,
  ksh: SHELL_CODE,
  mksh: SHELL_CODE,
  ash: SHELL_CODE,
  fish: SHELL_CODE,
  csh: SHELL_CODE,
  tcsh: SHELL_CODE,
  pwsh: /^-(?:c|command|encodedcommand|ec)$/i,
  powershell: /^-(?:c|command|encodedcommand|ec)$/i,
  python: /^-[A-Za-z]*c$/,
  pypy: /^-[A-Za-z]*c$/,
  perl: /^-[A-Za-z]*[eE]$/,
  ruby: /^-[A-Za-z]*e$/,
  node: /^(?:-e|--eval|-p|--print)$/,
  nodejs: /^(?:-e|--eval|-p|--print)$/,
  bun: /^(?:-e|--eval|-p|--print)$/,
  php: /^-[rBER]$/,
  lua: /^-e$/,
  luajit: /^-e$/,
  rscript: /^-e$/,
  julia: /^(?:-e|-E|--eval|--print)$/,
  osascript: /^-e$/,
  tclsh: /^$/,
  wish: /^$/,
  guile: /^-c$/,
  racket: /^(?:-e|--eval)$/,
  elixir: /^(?:-e|--eval)$/,
  groovy: /^-e$/,
};

export interface Refusal {
  message: string;
  hint: string;
}

const ARGUMENT_HINT = `pass the field as an argument of the code instead: --exec 'sh -c "notify-send -- \\"\\$1\\"" sh {alert_title}'`;

/** The code word a flag gives (attached to it, `--eval=…`, `-cCODE`, or the next word), or undefined when `arg` is no code flag. */
function codeAt(flag: RegExp, args: readonly string[], i: number): { word: string; at: number } | undefined {
  const arg = args[i] as string;
  const eq = arg.indexOf('=');
  if (arg.startsWith('--') && eq > 0) return flag.test(arg.slice(0, eq)) ? { word: arg, at: i } : undefined;
  if (flag.test(arg)) {
    const at = args[i + 1] === '--' ? i + 2 : i + 1;
    return { word: args[at] ?? '', at };
  }
  if (/^-[A-Za-z]/.test(arg) && flag.test(arg.slice(0, 2))) return { word: arg, at: i };
  return undefined;
}

/** An interpreter's words: no placeholder in any code it is given, nor among its options or as its script. */
function interpreterRefusal(program: string, flag: RegExp, args: readonly string[]): Refusal | undefined {
  const code = (word: string): Refusal => ({
    message: `--exec: a {field} cannot be in the code ${program} runs, where a recall's text would run as commands: ${word}`,
    hint: ARGUMENT_HINT,
  });
  let lastCode = -1;
  const codeWords = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    const found = codeAt(flag, args, i);
    if (found === undefined) continue;
    if (hasPlaceholder(found.word)) return code(found.word);
    codeWords.add(found.at);
    lastCode = Math.max(lastCode, found.at);
  }
  // Without code given by a flag, the first word that is no option is the script (or an option's value: then the
  // script comes later, and what follows the value is the script's own, as data).
  const end = lastCode >= 0 ? lastCode : args.findIndex((a) => !/^[-+]./.test(a));
  const before = end < 0 ? args : args.slice(0, end + 1);
  const chosen = before.find((word, i) => !codeWords.has(i) && hasPlaceholder(word));
  if (chosen === undefined) return undefined;
  return {
    message: `--exec: a {field} cannot be among ${program}'s options or be its script, where a recall's text could choose what runs: ${chosen}`,
    hint: ARGUMENT_HINT,
  };
}

/** Why `words` (an --exec command) may not run with its placeholders filled from a recall; undefined when it may. */
export function placeholderRefusal(words: readonly string[]): Refusal | undefined {
  const first = words[0] as string;
  // A record must never choose what runs: a placeholder is filled into arguments only.
  if (hasPlaceholder(first))
    return {
      message: `--exec: a {field} cannot be the program, only its arguments: ${first}`,
      hint: 'name the program itself, and give it the field as an argument',
    };
  const program = programName(first);
  const args = words.slice(1);
  const withField = args.find(hasPlaceholder);
  if (withField === undefined) return undefined;
  if (RUNNERS.has(program))
    return {
      message: `--exec: a {field} cannot be in a command ${program} runs: its words may name the program or the shell command that runs: ${withField}`,
      hint: `put the command in a script of your own and give it the field: --exec 'my-notify.sh -- {alert_title}'`,
    };
  if (PROGRAM_OPERAND.has(program)) {
    return {
      message: `--exec: a {field} cannot be in the code ${program} runs, where a recall's text would run as commands: ${withField}`,
      hint: `${program} reads its program and its options from any of its words: give the field to a script of your own instead`,
    };
  }
  const flag = CODE_FLAGS[program];
  return flag === undefined ? undefined : interpreterRefusal(program, flag, args);
}
