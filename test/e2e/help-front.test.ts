// The launcher answers help from the CommonJS front (dist/cli/front.cjs): the same answer main() gives, and a
// run that only mentions a help word is handed to main() untouched.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/in-process.js';

describe('help from the CommonJS front', () => {
  it.each([
    [['--help']],
    [['feed', '--help']],
    [['help', 'config']],
    [['help', 'exit-codes']],
    [['help', 'formats']],
    [['help', 'environment']],
    [['config', '--help']],
    [['cases', '-h']],
    [['help']],
    [[]],
    [['feeed', '-h']],
    [['feed', '--nope', '--help']],
    [['completion', '--help']],
    // `help` is a profile's name here: feed would run, so main() takes over and refuses --hours 0.
    [['--profile', 'help', 'feed', '--hours', '0']],
    // ... and here a command runs: main() prints the config path.
    [['--profile', 'help', 'config', 'path']],
    [['-h', 'config', 'path']],
  ])('%j: the same stdout, stderr and exit code as main() in-process', async (argv) => {
    const env = { RECALL_FEED_CONFIG_DIR: tempDir('rf-front-') };
    const [spawned, inProcess] = await Promise.all([runCli(argv, { env }), runMain(argv, { env })]);
    expect(spawned.stdout).toBe(inProcess.stdout);
    expect(spawned.stderr).toBe(inProcess.stderr);
    expect(spawned.exitCode).toBe(inProcess.code);
    // Something was said: a help page, a usage error or the command's own output.
    expect(`${spawned.stdout}${spawned.stderr}`.length).toBeGreaterThan(0);
  });

  it('a command that runs is handed over once: config path prints one line', async () => {
    const dir = tempDir('rf-front-');
    const r = await runCli(['--profile', 'help', 'config', 'path'], { env: { RECALL_FEED_CONFIG_DIR: dir } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain(dir);
  });

  // The front (and the launcher's --version) writes to a file, a pipe or /dev/null with fs.writeSync,
  // without Node's stream.
  it('written to a file: the same help as main() in-process', async () => {
    const file = path.join(tempDir('rf-front-'), 'help.txt');
    const r = await execa('bash', ['-c', 'node "$0" feed --help > "$1"', BIN, file], {
      reject: false,
      extendEnv: false,
      env: cleanEnv(),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toBe((await runMain(['feed', '--help'])).stdout);
  });

  it.each([['--help'], ['--version']])(
    '%s into a pipe its reader has closed: exit 0 and nothing on stderr',
    async (flag) => {
      const r = await execa('bash', ['-c', 'node "$0" "$1" | true; echo "$PIPESTATUS"', BIN, flag], {
        reject: false,
        extendEnv: false,
        env: cleanEnv(),
      });
      expect(r.stdout).toBe('0');
      expect(r.stderr).toBe('');
    },
  );

  it.each([['--version'], ['-V']])('%s prints the version package.json gives, and exits 0', async (flag) => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const r = await runCli([flag]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
    expect(r.stderr).toBe('');
  });
});
