// `doctor -o`: the report goes to the file (atomically), its format from -f or the file's extension, as docs/formats.md says.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Check {
  name: string;
  status: string;
}

describe('doctor -o', () => {
  it('writes the report to the file, not stdout: .json as one document, .ndjson as lines; the exit code as without -o', async () => {
    const sandbox = await sandboxFor({ recordCount: 5, seed: 2 });
    const dir = tempDir('rf-doctor-o-');
    const printed = await runMainAgainst(sandbox, ['doctor', '-f', 'json']);
    const onStdout = JSON.parse(printed.stdout) as { status: string; checks: Check[] };
    expect(onStdout.checks.map((c) => c.name)).toContain('key');

    const json = path.join(dir, 'doctor.json');
    const r = await runMainAgainst(sandbox, ['doctor', '-o', json]);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(printed.code);
    const written = JSON.parse(readFileSync(json, 'utf8')) as { status: string; checks: Check[] };
    expect(written.status).toBe(onStdout.status);
    expect(written.checks.map((c) => [c.name, c.status])).toEqual(onStdout.checks.map((c) => [c.name, c.status]));

    const lines = path.join(dir, 'doctor.ndjson');
    const l = await runMainAgainst(sandbox, ['doctor', '-o', lines]);
    expect(l.stdout).toBe('');
    const checks = readFileSync(lines, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Check);
    expect(checks.map((c) => [c.name, c.status])).toEqual(onStdout.checks.map((c) => [c.name, c.status]));
    // Committed whole: no .partial left beside them.
    expect(readdirSync(dir).sort()).toEqual(['doctor.json', 'doctor.ndjson']);
  });

  it('-f json with any name, and -o - is stdout', async () => {
    const sandbox = await sandboxFor({ recordCount: 5, seed: 2 });
    const dir = tempDir('rf-doctor-o-');
    const out = path.join(dir, 'health.txt');
    const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json', '-o', out]);
    expect(r.stdout).toBe('');
    expect((JSON.parse(readFileSync(out, 'utf8')) as { checks: Check[] }).checks.length).toBeGreaterThan(0);
    const dash = await runMainAgainst(sandbox, ['doctor', '-o', '-']);
    expect(dash.stdout.split('\n')[0]).toMatch(/^\{"name":"config"/);
    expect(readdirSync(dir)).toEqual(['health.txt']);
  });
});
