// Picks the output format and target for a command, so feed and sources decide them the same way.
import path from 'node:path';
import type { Context } from '../context.js';
import type { Format, Settings } from '../settings.js';
import type { Terminal } from '../terminal/terminal.js';
import { fileTarget, stdoutTarget, type OutputTarget } from './file-target.js';

const BY_EXTENSION: Record<string, Format> = {
  '.csv': 'csv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

/** --format, else the -o file's extension, else the profile's format, else table on a terminal and jsonl in a pipe. */
export function chooseFormat(settings: Settings, terminal: Terminal): Format {
  if (settings.format) return settings.format;
  const byExtension = settings.output ? BY_EXTENSION[path.extname(settings.output).toLowerCase()] : undefined;
  if (byExtension) return byExtension;
  if (settings.profileFormat) return settings.profileFormat;
  return terminal.stdoutIsTTY && !settings.output ? 'table' : 'jsonl';
}

export interface TargetOptions {
  append?: boolean;
  resume?: boolean;
  fingerprint?: string;
}

export function openTarget(settings: Settings, ctx: Context, opts: TargetOptions = {}): Promise<OutputTarget> {
  if (!settings.output) return Promise.resolve(stdoutTarget(ctx.stdout));
  return fileTarget(settings.output, {
    append: opts.append ?? false,
    resume: opts.resume ?? false,
    fingerprint: opts.fingerprint ?? '',
  });
}
