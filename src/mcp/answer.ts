// A tool's answer (structuredContent plus a short text, both carrying freshness) and its errors as tool errors, secrets masked.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../runtime/error-reports.js';
import { runSecrets } from '../runtime/config/run-secrets.js';
import type { Context } from '../runtime/context.js';
import { stripControls } from '../output/control-escapes.js';
import { safeLink } from '../output/recall-text.js';
import { mapTexts } from '../api/text-values.js';
import { type Freshness, freshnessLine } from './freshness.js';

/**
 * The answer: the freshness first in the text too, since a client may read only the text. The text is cleaned of
 * control codes here, once for every tool: it quotes archive and catalogue values (a case note, a filter warning
 * naming stored values) that each tool would otherwise have to remember.
 */
export function answer(freshness: Freshness, text: string, structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: stripControls(`${freshnessLine(freshness)}\n${text}`) }],
    structuredContent: cleaned({ freshness, ...structured }),
  };
}

/**
 * The data as docs/mcp.md promises it, whatever a tool put in: every string (keys too) without control codes, and a
 * `source_url` only when it is an http(s) link (else empty: a raw record's schema wants a string there).
 */
function cleaned<T>(value: T): T {
  return mapTexts(value, (text, key) =>
    key === 'source_url' ? (safeLink({ source_url: text }) ?? '') : stripControls(text),
  );
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
