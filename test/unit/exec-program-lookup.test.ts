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
  it('passes over a PATH entry that is a file (ENOTDIR) or a link loop (ELOOP), and finds the program further on', () => {
    const { file, loop, bin } = layout();
    expect(programProblem('rf-tool', [file, loop, bin].join(':'))).toBeUndefined();
    expect(programProblem('rf-missing', [file, loop, bin].join(':'))).toBe('not found');
    expect(programProblem(`${file}/rf-tool`, undefined)).toBe('not found');
  });

  it('a program name over 255 bytes (ENAMETOOLONG) is not found, bare or as a path', () => {
    const { bin } = layout();
    const long = 'x'.repeat(300);
    expect(programProblem(long, bin)).toBe('not found');
    expect(programProblem(path.join(bin, long), undefined)).toBe('not found');
  });
});
