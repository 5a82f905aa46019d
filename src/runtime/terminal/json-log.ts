// --log-format json: every stderr line as one JSON object {time, level, msg, ...fields}; stdout is untouched.
import type { OutStream } from '../context.js';
import { plainLine } from '../../output/control-escapes.js';
// Already part of the start-up (the global flags' help is the table's): reading the row here loads nothing more.
import { setting } from '../settings-table.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The prefixes the text lines carry, read back as levels (the words stay out of msg). */
const PREFIXES: [string, LogLevel][] = [
  ['warning: ', 'warn'],
  ['error: ', 'error'],
  ['hint: ', 'info'],
  ['recall-feed: ', 'info'],
];

/**
 * A stderr that turns what is written to it, line by line, into JSON lines. It reports no terminal, so no
 * spinner starts and no colour is chosen for it; writers that know more (the status reporter, the error
 * report) call `log` with fields of their own.
 */
export class JsonLogStream {
  readonly isTTY = false;
  private pending = '';
  /** Hears each record as written (the monitor's stderr tail). */
  tap: ((line: string) => void) | undefined;

  /** No Writable underneath: the help's front bundle must not load Node's streams (bin/README.md). */
  constructor(
    private readonly target: OutStream,
    private readonly now: () => number,
  ) {}

  /** As the context's stderr, which only ever has `write` called on it. */
  asStream(): OutStream {
    return this as unknown as OutStream;
  }

  /** One record: the message made plain text (it may carry text from the network). */
  log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
    const record = { time: new Date(this.now()).toISOString(), level, msg: plainLine(msg), ...fields };
    const line = `${JSON.stringify(record)}\n`;
    this.tap?.(line);
    this.target.write(line);
  }

  /** Writes synchronously, as the process's stderr does, so the order of lines and records holds. */
  write(chunk: unknown, ...rest: unknown[]): boolean {
    this.take(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }

  /** A last line without its newline (commander's help ends with one; nothing should be lost). */
  flush(): void {
    if (this.pending !== '') this.line(this.pending);
    this.pending = '';
  }

  private take(text: string): void {
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop() ?? '';
    for (const part of parts) this.line(part.replace(/\r$/, ''));
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    for (const [prefix, level] of PREFIXES) {
      if (text.startsWith(prefix)) {
        this.log(level, text.slice(prefix.length), prefix === 'hint: ' ? { hint: true } : {});
        return;
      }
    }
    this.log('info', text);
  }
}

export function isJsonLog(stream: unknown): stream is JsonLogStream {
  return stream instanceof JsonLogStream;
}

/**
 * The log format before commander parses anything (the stream is swapped before the first line): the last
 * --log-format on the line (before `--`), else the settings table's log-format variable, else its default, read by
 * the table's parser. An unknown value stays text here; commander refuses it as a usage error.
 */
export function logFormatOf(argv: readonly string[], env: Record<string, string | undefined>): LogFormat {
  const row = setting('log-format');
  let chosen: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg === '--log-format') chosen = argv[i + 1];
    else if (arg.startsWith('--log-format=')) chosen = arg.slice('--log-format='.length);
  }
  const raw = chosen ?? row.env?.map((name) => env[name]).find((v) => v !== undefined) ?? row.default;
  try {
    return row.parse(raw, '--log-format') === 'json' ? 'json' : 'text';
  } catch {
    return 'text';
  }
}
