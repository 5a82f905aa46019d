// Commander's own choices errors (--log-format, `completion <shell>`) print the refused value without its control
// characters, in one line, as every other flag's error does.
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';

describe("commander's choices errors", () => {
  it('--log-format with ESC and RLO: exit 2, one plain line', async () => {
    const r = await runMain(['feed', '--sandbox', '--log-format', '\x1b[31mX\u202e']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: option '--log-format <format>' argument '[31mX' is invalid. Allowed choices are text, json.\n",
    );
    // Commander's suggestion stays a hint of its own.
    const typo = await runMain(['feed', '--hous', '6']);
    expect(typo.stderr).toBe("error: unknown option '--hous'\nhint: did you mean --hours?\n");
  });

  it('completion with ESC, and with a line break: exit 2, one plain line', async () => {
    const r = await runMain(['completion', 'x\x1b[2J']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: command-argument value 'x[2J' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    );
    const broken = await runMain(['completion', 'ba\nsh\u009b']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      "error: command-argument value 'ba sh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    );
  });
});
