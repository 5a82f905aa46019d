// programProblem: a PATH entry where no program can be (a file, a link loop) is passed over as execvp does, and a name
// too long for the system is not found; neither throws.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { programProblem } from '../../src/actions/exec-program.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A folder holding a plain file, a link loop and a bin folder with an executable `rf-tool`. */
function layout(): { file: string; loop: string; bin: string } {
  const dir = tempDir('rf-exec-lookup-');
  const file = path.join(dir, 'hostname');
  writeFileSync(file, 'box\n');
  const loop = path.join(dir, 'loop');
  symlinkSync(loop, loop);
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'rf-tool'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(bin, 'rf-tool'), 0o755);
  return { file, loop, bin };
}

describe('programProblem', () => {
  it('passes over a PATH entry that is a file (ENOTDIR), as execvp does, and finds the program further on', () => {
    const { file, bin } = layout();
    expect(programProblem('rf-tool', [file, bin].join(':'))).toBeUndefined();
    expect(programProblem('rf-missing', [file, bin].join(':'))).toBe('not found');
    expect(programProblem(`${file}/rf-tool`, undefined)).toBe('not found');
  });

  it('a link loop on the way stops the search, as it stops spawn: unreachable, unless a runnable file came first', () => {
    const { loop, bin } = layout();
    expect(programProblem('rf-tool', [loop, bin].join(':'))).toBe('unreachable');
    expect(programProblem('rf-tool', [bin, loop].join(':'))).toBeUndefined();
  });

  it('a program name over 255 bytes (ENAMETOOLONG) stops the search too, bare or as a path', () => {
    const { bin } = layout();
    const long = 'x'.repeat(300);
    expect(programProblem(long, bin)).toBe('unreachable');
    expect(programProblem(path.join(bin, long), undefined)).toBe('unreachable');
  });
});
