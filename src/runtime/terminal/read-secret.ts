// Reads a secret from stdin: without echo on a terminal, the whole input from a pipe; trimmed.
import { InterruptedError, UsageError } from '../cli-errors.js';
import type { Context } from '../context.js';

/** The run's interrupt (SIGINT, SIGTERM) as the error that ends the read: a prompt never outlives a stop. */
function interrupted(ctx: Context): Error {
  const reason: unknown = ctx.signal.reason;
  return reason instanceof Error ? reason : new InterruptedError('SIGTERM');
}

async function readAll(ctx: Context): Promise<string> {
  let text = '';
  ctx.stdin.setEncoding('utf8');
  const stop = () => ctx.stdin.destroy(interrupted(ctx));
  if (ctx.signal.aborted) throw interrupted(ctx);
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of ctx.stdin) text += chunk as string;
  } catch (err) {
    if (ctx.signal.aborted) throw interrupted(ctx);
    throw err;
  } finally {
    ctx.signal.removeEventListener('abort', stop);
  }
  return text;
}

function readHidden(ctx: Context, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = ctx.stdin;
    ctx.stderr.write(prompt);
    stdin.setRawMode?.(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    let text = '';
    const done = (err?: Error) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      ctx.signal.removeEventListener('abort', onAbort);
      ctx.stderr.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        // Raw mode turns Ctrl-C into this character instead of SIGINT: the same interrupt, exit 130.
        if (ch === '\u0003') return done(new InterruptedError('Ctrl-C'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else text += ch;
      }
    };
    const onEnd = () => done();
    // SIGTERM (or SIGINT from outside the terminal) while the prompt waits: raw mode is given back, exit 130.
    const onAbort = () => done(interrupted(ctx));
    if (ctx.signal.aborted) return done(interrupted(ctx));
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads the secret `key` (a config key: api-key, webhook) from stdin, prompting without echo on a terminal. */
export async function readSecret(ctx: Context, key: string, prompt: string): Promise<string> {
  const raw = ctx.stdin.isTTY ? await readHidden(ctx, prompt) : await readAll(ctx);
  const value = raw.trim();
  if (value === '') {
    const what = key === 'api-key' ? 'key' : key;
    throw new UsageError(`no ${what} given on stdin`, `example: echo "$VALUE" | recall-feed config set ${key}`);
  }
  return value;
}
