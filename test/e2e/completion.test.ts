// `recall-feed completion` in real shells: the bash script is sourced in a real bash and asked what it offers; zsh and fish
// parse theirs. The CLI itself runs in process; what the scripts name and the usage errors: test/behaviour/completion.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

let dir: string;
/** Where the completions look for file names. */
let work: string;
let env: Record<string, string | undefined>;
let bashScript: string;

/** The CLI in process, with a home of its own inside `dir`, so nothing is left behind: the shells are what is real here. */
function cli(args: string[]) {
  return runMain(args, { env });
}

function installed(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * What the sourced script offers when the command line is `words` and the cursor ends the last one, the
 * way bash calls a completion function: COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set, then the function
 * `complete -p` names, with the command, the current word and the previous one.
 */
async function offered(words: string[]): Promise<string[]> {
  const program = `
source "$1"; shift
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
COMP_LINE="\${COMP_WORDS[*]}"
COMP_POINT=\${#COMP_LINE}
fn=$(complete -p recall-feed | sed -E 's/.*-F ([^ ]+).*/\\1/')
"$fn" recall-feed "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await execa('bash', ['--norc', '--noprofile', '-c', program, 'bash', bashScript, ...words], {
    reject: false,
    extendEnv: false,
    env,
    cwd: work,
  });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .sort();
}

/** The flags a help page lists (its Options section), read from the text commander prints. */
function helpFlags(help: string): string[] {
  const flags: string[] = [];
  for (const line of help.split('\n')) {
    if (!/^ {2}-/.test(line)) continue;
    const term = line.trim().split(/\s{2,}/)[0] as string;
    for (const m of term.matchAll(/(?:^|,\s*)(--?[A-Za-z0-9][\w-]*)/g)) flags.push(m[1] as string);
  }
  return flags;
}

function helpCommands(help: string): string[] {
  const section = (help.split('Commands:\n')[1] ?? '').split('\n\n')[0] as string;
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] as string);
}

beforeAll(async () => {
  dir = tempDir('rf-completion-');
  work = path.join(dir, 'work');
  mkdirSync(path.join(dir, 'home'));
  mkdirSync(path.join(work, 'reports'), { recursive: true });
  for (const f of ['recalls.csv', 'recent.json', 'other.txt']) writeFileSync(path.join(work, f), '');
  env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    RECALL_FEED_CONFIG_DIR: path.join(dir, 'config'),
    TERM: 'dumb',
  };
  const r = await cli(['completion', 'bash']);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  bashScript = path.join(dir, 'recall-feed.bash');
  writeFileSync(bashScript, r.stdout);
});

describe('bash completion', () => {
  it('completes a command name', async () => {
    expect(await offered(['recall-feed', 'f'])).toEqual(['feed']);
    expect(await offered(['recall-feed', 'config', 's'])).toEqual(['set']);
    expect(await offered(['recall-feed', 'completion', ''])).toEqual(['bash', 'fish', 'zsh']);
  });

  it('offers the contracts after schema, and the commands and help topics after help', async () => {
    const list = await cli(['schema', '--list']);
    const contracts = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0] as string);
    expect(contracts).toContain('webhook-teams');
    expect(await offered(['recall-feed', 'schema', ''])).toEqual([...contracts].sort());
    expect(await offered(['recall-feed', 'schema', 'webhook-'])).toEqual([
      'webhook-json',
      'webhook-slack',
      'webhook-teams',
    ]);
    const commands = helpCommands((await cli(['--help'])).stdout).filter((c) => c !== 'help');
    const topics = [...(await cli(['--help'])).stdout.matchAll(/^ {2}recall-feed help (\S+)/gm)].map((m) => m[1]);
    expect(topics).toEqual(['environment', 'exit-codes', 'formats']);
    expect(await offered(['recall-feed', 'help', ''])).toEqual([...commands, ...topics].sort());
    expect(await offered(['recall-feed', 'help', 'ex'])).toEqual(['exit-codes']);
  });

  it('offers the sort fields after --sort and the formats after -f', async () => {
    expect(await offered(['recall-feed', 'feed', '--sort', ''])).toEqual([
      'created_in_db_at',
      'published_at',
      'updated_at',
    ]);
    expect(await offered(['recall-feed', 'feed', '-f', ''])).toEqual(['csv', 'json', 'jsonl', 'parquet', 'table']);
    expect(await offered(['recall-feed', 'feed', '--order', ''])).toEqual(['asc', 'desc']);
    // bash splits --format=js at the = (COMP_WORDBREAKS) into three words
    expect(await offered(['recall-feed', 'feed', '--format', '=', 'js'])).toEqual(['json', 'jsonl']);
  });

  it('offers file names where a flag takes a file, and nothing after a free value', async () => {
    expect(await offered(['recall-feed', 'feed', '-o', 'rec'])).toEqual(['recalls.csv', 'recent.json']);
    expect(await offered(['recall-feed', 'feed', '--state', 're'])).toEqual(['recalls.csv', 'recent.json', 'reports']);
    expect(await offered(['recall-feed', 'sandbox', '--keys', 'o'])).toEqual(['other.txt']);
    expect(await offered(['recall-feed', 'feed', '--hours', ''])).toEqual([]);
  });

  it('offers file names after --db, --catalog and --metrics-file, whose placeholders name more than a file', async () => {
    const all = ['recalls.csv', 'recent.json', 'reports'];
    expect(await offered(['recall-feed', 'query', '--db', 're'])).toEqual(all);
    expect(await offered(['recall-feed', 'cases', 'show', '--db', 're'])).toEqual(all);
    expect(await offered(['recall-feed', 'match', '--catalog', 're'])).toEqual(all);
    expect(await offered(['recall-feed', 'sync', '--metrics-file', 'o'])).toEqual(['other.txt']);
  });

  it("offers after -f the formats the command writes, not the record formats of the program's -f", async () => {
    const record = ['csv', 'json', 'jsonl', 'parquet', 'table'];
    expect(await offered(['recall-feed', 'digest', '-f', ''])).toEqual(['html', 'json', 'markdown', 'text']);
    expect(await offered(['recall-feed', 'report', '--format', ''])).toEqual(['csv', 'html', 'json', 'markdown']);
    expect(await offered(['recall-feed', 'health', '-f', ''])).toEqual(['json', 'jsonl', 'table']);
    expect(await offered(['recall-feed', 'cases', 'show', '-f', ''])).toEqual(['csv', 'json', 'jsonl', 'table']);
    expect(await offered(['recall-feed', 'cases', '-f', ''])).toEqual(record);
    expect(await offered(['recall-feed', '-f', ''])).toEqual(record);
  });

  it('skips the values of earlier flags when finding the command', async () => {
    // `feed` here is the profile's name, not the command: the next word is still a command
    expect(await offered(['recall-feed', '--profile', 'feed', 'con'])).toEqual(['config']);
    const flags = await offered(['recall-feed', '--sandbox', 'feed', '--sort', 'updated_at', '--s']);
    expect(flags).toEqual(expect.arrayContaining(['--sources', '--sort', '--skip-existing', '--state', '--sandbox']));
    expect(flags).not.toContain('--seed');
  });

  it('offers exactly the commands and flags the help pages list', async () => {
    const main = await cli(['--help']);
    const feed = await cli(['feed', '--help']);
    const commands = helpCommands(main.stdout);
    expect(commands).toContain('feed');
    expect(await offered(['recall-feed', ''])).toEqual([...commands].sort());
    const expected = [...new Set([...helpFlags(main.stdout), ...helpFlags(feed.stdout)])].sort();
    expect(expected).toContain('--page-size');
    expect(await offered(['recall-feed', 'feed', '-'])).toEqual(expected);
  });
});

describe('zsh and fish parse their scripts', () => {
  it.skipIf(!installed('zsh'))('zsh parses the script', async () => {
    const file = path.join(dir, '_recall_feed');
    writeFileSync(file, (await cli(['completion', 'zsh'])).stdout);
    const r = await execa('zsh', ['-n', file], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it.skipIf(!installed('fish'))('fish parses the script', async () => {
    const file = path.join(dir, 'recall-feed.fish');
    writeFileSync(file, (await cli(['completion', 'fish'])).stdout);
    const r = await execa('fish', ['--no-execute', file], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});
