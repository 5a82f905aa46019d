// Where a {field} may not go in an --exec command: the program, the code a shell or interpreter runs, its options,
// or anywhere in a command whose program runs another program or a shell command its arguments name.

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const ONE_PLACEHOLDER = new RegExp(PLACEHOLDER.source);
export const hasPlaceholder = (word: string) => ONE_PLACEHOLDER.test(word);

/**
 * The program a word names, by the letters its file name begins with: `python3.12` and `python3.13t` are python,
 * `/usr/bin/bash` bash, `perl5.36-x86_64-linux-gnu` perl, `bash.exe` bash, `vim.basic` vim, `sqlite3` sqlite,
 * `systemd-run` systemd-run. Whatever follows the letters may be a build's name, so it never makes another program
 * of it (failing safe), but a script's extension does: `script.sh`, `exec.sh` or `git-notify.py` is a user's script,
 * which its own interpreter runs with the fields as its arguments.
 */
export function programName(word: string): string {
  const base = (word.split('/').pop() ?? word).toLowerCase();
  if (SCRIPT_FILE.test(base)) return base;
  return /^[a-z][a-z_-]*/.exec(base)?.[0].replace(/-+$/, '') ?? '';
}
/** A script's file by its extension (never awk's or sed's: their scripts read `x=1` operands as assignments). */
const SCRIPT_FILE = /\.(?:sh|bash|zsh|ksh|fish|py|pyw|pl|pm|rb|js|mjs|cjs|ts|php|lua|tcl|ps1)$/;

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
    'git find vim vi nvim emacs sqlite psql mysql docker podman kubectl npx npm pnpm yarn bunx uvx pipx deno tar scp ' +
    'sftp rsync sort less more man'
  ).split(' '),
);

/** Interpreters whose program is their first operand and whose options may come anywhere (GNU getopt): awk, sed. */
const PROGRAM_OPERAND = new Set(['awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed']);

/** Interpreters that run the word after a flag as code (`sh -c`, `python -c`, `perl -e`, `node --eval`), else a script file. */
const SHELL_CODE = /^-[A-Za-z]*c[A-Za-z]*$|^--command$/;
/** An interpreter that takes code only from a script file. */
const NO_CODE_FLAG = /(?!)/;
const PYTHON_CODE = /^-[A-Za-z]*c$/;
const CODE_FLAGS: Record<string, RegExp> = {
  sh: SHELL_CODE,
  bash: SHELL_CODE,
  rbash: SHELL_CODE,
  rksh: SHELL_CODE,
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
  python: PYTHON_CODE,
  pypy: PYTHON_CODE,
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
  tclsh: NO_CODE_FLAG,
  wish: NO_CODE_FLAG,
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

/** Interpreters that take every word after their code as the code's arguments, never as options: shells, python. */
const STOP_AT_CODE = new Set(
  Object.entries(CODE_FLAGS)
    .filter(([, flag]) => flag === SHELL_CODE || flag === PYTHON_CODE)
    .map(([program]) => program),
);

/** A script as a command names it: a path, or a name with a script's extension (`notify.py`, `./alert`). */
const SCRIPT =
  /\/|\.(?:sh|bash|zsh|py|pyw|pl|pm|rb|js|mjs|cjs|ts|lua|php|r|jl|tcl|groovy|exs?|scm|rkt|ps1|applescript|scpt)$/i;

/** perl -n, -p or -i: its file operands are opened by two-argument open, where a name ending in | runs as a command. */
const PERL_READS_FILES = /^-[A-Za-z]*[npi]/;

/**
 * An interpreter's words: no placeholder in any code it is given, and none before the words that are surely its
 * code's or script's own: after the code for a shell or python; after a `--` that follows the code for the others
 * (perl, node, ruby… read options there: a title `-e…` or `--eval=…` would be more code); after a word that names a
 * script when no code is given (an option's value is no script: `python -W ignore {x}`). perl reading files (-n, -p,
 * -i) takes none at all.
 */
function interpreterRefusal(program: string, flag: RegExp, args: readonly string[]): Refusal | undefined {
  let lastCode = -1;
  for (let i = 0; i < args.length; i++) {
    const found = codeAt(flag, args, i);
    if (found === undefined) continue;
    if (hasPlaceholder(found.word))
      return {
        message: `--exec: a {field} cannot be in the code ${program} runs, where a recall's text would run as commands: ${found.word}`,
        hint: ARGUMENT_HINT,
      };
    lastCode = Math.max(lastCode, found.at);
    i = found.at;
  }
  const withField = args.findIndex(hasPlaceholder);
  if (withField < 0) return undefined;
  let dataFrom: number;
  if (program === 'perl' && args.some((a) => PERL_READS_FILES.test(a))) dataFrom = args.length;
  else if (lastCode >= 0)
    dataFrom = STOP_AT_CODE.has(program) ? lastCode + 1 : args.indexOf('--', lastCode + 1) + 1 || args.length;
  else {
    const script = args.findIndex((a, i) => i < withField && !/^[-+]/.test(a) && SCRIPT.test(a));
    dataFrom = script < 0 ? args.length : script + 1;
  }
  if (withField >= dataFrom) return undefined;
  return {
    message: `--exec: a {field} cannot stand where ${program} may read it as an option, code or its script: ${args[withField]}`,
    hint:
      lastCode >= 0 && !STOP_AT_CODE.has(program)
        ? `put -- after the code, then the fields: --exec "${program} -e '…' -- {alert_title}"`
        : `give the field to a script file: --exec '${program} notify-script {alert_title}' (a path, or a name such as notify.py)`,
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
