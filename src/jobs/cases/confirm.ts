// Asks a yes/no question on the terminal (stderr) and reads the answer from stdin: a bulk case step's check.
import type { Context } from '../../runtime/context.js';

/** True for y or yes; anything else, or stdin ending, is no. */
export async function confirm(ctx: Context, question: string): Promise<boolean> {
  ctx.stderr.write(`${question} [y/N] `);
  let answer = '';
  for await (const chunk of ctx.stdin) {
    answer += String(chunk);
    if (answer.includes('\n') || answer.length > 100) break;
  }
  return /^\s*y(es)?\s*$/i.test(answer.split('\n')[0] ?? '');
}
