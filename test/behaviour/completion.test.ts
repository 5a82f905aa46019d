// `recall-feed completion` in process: the zsh and fish scripts name every command and the closed values; an unknown or
// missing shell is a usage error (the scripts in real shells: test/e2e/completion.test.ts).
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';

const cli = (args: string[]) => runMain(args);

describe('zsh and fish scripts', () => {
  it('are generated and name every command and the closed values', async () => {
    const zsh = await cli(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout.startsWith('#compdef recall-feed\n')).toBe(true);
    const fish = await cli(['completion', 'fish']);
    expect(fish.code).toBe(0);
    for (const script of [zsh.stdout, fish.stdout]) {
      for (const word of ['feed', 'sources', 'health', 'config', 'sandbox', 'completion'])
        expect(script).toContain(word);
      expect(script).toContain('table jsonl json csv');
      expect(script).toContain('published_at created_in_db_at updated_at');
    }
    expect(fish.stdout).toMatch(/^complete -c recall-feed .*-l sort -x -a 'published_at created_in_db_at updated_at'/m);
    // schema's contracts and the help topics, which no flag declares.
    expect(fish.stdout).toMatch(
      /^complete -c recall-feed -f -n '__fish_seen_subcommand_from schema' -a 'record match case digest .*webhook-teams'$/m,
    );
    expect(fish.stdout).toMatch(
      /^complete -c recall-feed -f -n '__fish_seen_subcommand_from help' -a 'feed sources .* completion environment exit-codes formats'$/m,
    );
    expect(zsh.stdout).toContain("'schema|0') printf '%s\\n' 'record match case digest ");
    expect(zsh.stdout).toMatch(/'help\|0'\) printf '%s\\n' 'feed .* environment exit-codes formats' ;;/);
    expect(fish.stdout).toMatch(/^complete -c recall-feed .*-s o -l output -r -F/m);
  });

  it("fish offers after -f the command's own formats, and the program's only where no command has its own", async () => {
    const fish = (await cli(['completion', 'fish'])).stdout.split('\n');
    const format = fish.filter((l) => / -s f -l format /.test(l));
    expect(format).toContainEqual(
      expect.stringMatching(
        /^complete -c recall-feed -n '__fish_seen_subcommand_from digest' -s f -l format -x -a 'text markdown html json' /,
      ),
    );
    // The program's own line: not under a command that has its own -f.
    const program = format.filter((l) => l.startsWith("complete -c recall-feed -n 'not "));
    expect(program).toHaveLength(1);
    expect(program[0]).toMatch(
      /-n 'not __fish_seen_subcommand_from [a-z ]*\bdigest\b[a-z ]*' -s f -l format -x -a 'table jsonl json csv parquet'/,
    );
    expect(fish.filter((l) => / -l db -r -F /.test(l)).length).toBeGreaterThan(5);
  });
});

describe('completion errors', () => {
  it('refuses an unknown or missing shell with a usage error and no output', async () => {
    const bad = await cli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: .*'tcsh'.*bash, zsh, fish/);
    const none = await cli(['completion']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^error: missing required argument 'shell'/);
  });
});
