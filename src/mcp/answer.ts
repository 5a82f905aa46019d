// A tool's answer (structuredContent plus a short text, both carrying freshness) and its errors as tool errors, secrets masked.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../runtime/error-reports.js';
import { runSecrets } from '../runtime/config/run-secrets.js';
import type { Context } from '../runtime/context.js';
import { stripControls } from '../output/control-escapes.js';
import { type Freshness, freshnessLine } from './freshness.js';

/**
 * The answer: the freshness first in the text too, since a client may read only the text. The text is cleaned of
 * control codes here, once for every tool: it quotes archive and catalogue values (a case note, a filter warning
 * naming stored values) that each tool would otherwise have to remember.
 */
export function answer(freshness: Freshness, text: string, structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: stripControls(`${freshnessLine(freshness)}\n${text}`) }],
    structuredContent: { freshness, ...structured },
  };
}

/**
 * Runs a tool; anything it throws becomes a tool error with the CLI's one-line message and hints, every secret the
 * run knows masked: never a crash, never a stack, never a key.
 */
export async function guarded(ctx: Context, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    const report = describeError(err, runSecrets(ctx));
    const hints = report.hints.length === 0 ? '' : ` (hint: ${report.hints.join('; ')})`;
    return { content: [{ type: 'text', text: stripControls(`${report.message}${hints}`) }], isError: true };
  }
}
