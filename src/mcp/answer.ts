// A tool's answer (structuredContent plus a short text, both carrying freshness) and its errors as tool errors, secrets masked.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../runtime/error-reports.js';
import { runSecrets } from '../runtime/config/run-secrets.js';
import type { Context } from '../runtime/context.js';
import { stripControls } from '../output/control-escapes.js';
import { safeLink } from '../output/recall-text.js';
import { mapTexts } from '../api/text-values.js';
import { CaseNotFoundError, CaseStepError } from '../archive/cases-errors.js';
import { cutText } from './fit.js';
import { type Freshness, freshnessLine } from './freshness.js';

/** The longest text an answer gives: a summary for a client that reads only text; the data is in structuredContent. */
const MAX_TEXT = 100_000;

/**
 * The answer: the freshness first in the text too, since a client may read only the text. The text is cleaned of
 * control codes here, once for every tool: it quotes archive and catalogue values (a case note, a filter warning
 * naming stored values) that each tool would otherwise have to remember.
 */
export function answer(freshness: Freshness, text: string, structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: cutText(stripControls(`${freshnessLine(freshness)}\n${text}`), MAX_TEXT) }],
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
 * The CLI's hints worded for an assistant, which has tools, not a shell: what a tool does instead, or who can do what
 * no tool does.
 */
function toolHints(err: unknown, hints: string[]): string[] {
  if (err instanceof CaseNotFoundError) return ['list_cases with state "all" lists every case'];
  if (err instanceof CaseStepError && /\bcases reopen\b/.test(err.hint ?? ''))
    return ['no tool reopens a closed case: the user can reopen it from the command line'];
  return hints;
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
    const said = toolHints(err, report.hints);
    const hints = said.length === 0 ? '' : ` (hint: ${said.join('; ')})`;
    return { content: [{ type: 'text', text: stripControls(`${report.message}${hints}`) }], isError: true };
  }
}
