// Who acts when --by is not given: the OS user name (os.userInfo), else USER or LOGNAME from the context.
import os from 'node:os';
import type { Context } from '../../runtime/context.js';

export function osUser(ctx: Context): string {
  try {
    const name = os.userInfo().username;
    if (name) return name;
  } catch {
    // No passwd entry (some containers): the environment may still say.
  }
  return ctx.env.USER || ctx.env.LOGNAME || 'unknown';
}
