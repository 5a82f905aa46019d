// A recall for a person (`show`): every field wrapped to the width, lists as bullets; and the changes between versions.
// Everything shown comes from the API and passes cleanForTerminal first: no control codes reach the terminal.
// The API's times are labelled as a table heads them (`published at (UTC)`) and shown as sent.
import { fieldHeading } from './table.js';
import { cleanForTerminal, limitText, tableCell, terminalText } from './terminal-cells.js';
import { displayWidth, padToWidth, truncateToWidth, wrapLine } from './text-width.js';

/** Below this width labels go on their own line, above their values. */
const STACKED_BELOW = 60;
const MAX_LABEL = 30;
const NONE = '—';

const label = (field: string) => terminalText(fieldHeading(field).replace(/_/g, ' '));

/** A list item on one line: a party as "name — role, country", an identifier as "type value", else text or JSON. */
function itemText(item: unknown): string {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const o = item as Record<string, unknown>;
    if (typeof o.name === 'string') {
      const about = [o.role, o.country].filter((v) => typeof v === 'string' && v !== '').join(', ');
      return about ? `${o.name} — ${about}` : o.name;
    }
    if (typeof o.type === 'string' && o.value !== undefined) return `${o.type} ${tableCell(o.value)}`;
  }
  return tableCell(item);
}

/** Text as lines of at most `width` columns; a link stays whole (wider than the line) so that it still works. */
function wrapText(text: string, width: number): string[] {
  const clean = terminalText(text);
  return /^https?:\/\/\S+$/.test(clean) ? [clean] : wrapLine(clean, width);
}

/** A field's value as lines of at most `width` columns. */
function valueLines(value: unknown, width: number): string[] {
  if (value === null || value === undefined || value === '') return [NONE];
  if (Array.isArray(value)) {
    if (value.length === 0) return [NONE];
    return value.flatMap((item) => wrapText(itemText(item), width - 2).map((l, i) => (i === 0 ? `• ${l}` : `  ${l}`)));
  }
  if (typeof value === 'string') {
    // A huge field shows its first VIEW_LIMIT characters: cleaning and wrapping stay quick, the screen readable.
    const { text, more } = limitText(value);
    // Paragraphs stay paragraphs; within one, every other break or control character goes.
    const lines = text.split(/\r\n|\r|\n/).flatMap((p) => wrapText(p, width));
    if (more > 0) lines.push(`… (${more} more characters)`);
    return lines;
  }
  return wrapLine(tableCell(value), width);
}

/** The title line: id, source, severity; then the alert title, wrapped. */
function heading(record: Record<string, unknown>, width: number): string[] {
  const parts = [`recall ${tableCell(record.id)}`, record.data_source, record.risk_severity]
    .filter((p) => typeof p === 'string' && p !== '')
    .map((p) => tableCell(p));
  const title = typeof record.alert_title === 'string' ? tableCell(record.alert_title) : '';
  return [...wrapLine(cleanForTerminal(parts.join(' · ')), width), ...(title ? wrapLine(title, width) : []), ''];
}

/** Every field of the record, in the order the API sent them, one block each. */
export function recordView(record: Record<string, unknown>, width: number): string {
  const w = Math.max(20, width);
  const fields = Object.keys(record);
  const lines = heading(record, w);
  if (w < STACKED_BELOW) {
    for (const f of fields) lines.push(label(f), ...valueLines(record[f], w - 2).map((l) => `  ${l}`));
  } else {
    const labelWidth = Math.min(MAX_LABEL, Math.floor(w * 0.3), Math.max(...fields.map((f) => displayWidth(label(f)))));
    const pad = ' '.repeat(labelWidth + 2);
    for (const f of fields) {
      const name = label(f);
      const values = valueLines(record[f], w - labelWidth - 2);
      // A label too long for its column gets a line of its own, above its values.
      if (displayWidth(name) > labelWidth) lines.push(truncateToWidth(name, w));
      values.forEach((l, i) => {
        const lead = i === 0 && displayWidth(name) <= labelWidth ? padToWidth(name, labelWidth + 2) : pad;
        lines.push(`${lead}${l}`.trimEnd());
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Fields whose value differs between two versions, in the newer version's order, removed fields last. */
export function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChange[] {
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => ({ field: f, before: before[f], after: after[f] }));
}

export interface VersionEntry {
  version: number;
  record: Record<string, unknown>;
  storedAt: string | undefined;
  current: boolean;
}

const shown = (v: unknown) => (v === undefined ? '(absent)' : v === null || v === '' ? NONE : tableCell(v));

/** Each version with when it was stored, and what changed from the one before, one line per field. */
export function historyView(versions: readonly VersionEntry[], width: number): string {
  const w = Math.max(20, width);
  const lines: string[] = [];
  versions.forEach((v, i) => {
    const about = [`version ${v.version}${v.current ? ' (current)' : ''}`];
    if (v.storedAt) about.push(`stored ${v.storedAt}`);
    if (typeof v.record.updated_at === 'string') about.push(`${fieldHeading('updated_at')} ${v.record.updated_at}`);
    lines.push(...wrapLine(terminalText(about.join(' · ')), w));
    const previous = versions[i - 1];
    if (!previous) return;
    const changes = fieldChanges(previous.record, v.record);
    if (changes.length === 0) lines.push('  no field changed');
    for (const c of changes) {
      const name = label(c.field);
      const room = Math.max(8, Math.floor((w - displayWidth(name) - 7) / 2));
      lines.push(`  ${name}: ${truncateToWidth(shown(c.before), room)} → ${truncateToWidth(shown(c.after), room)}`);
    }
  });
  return `${lines.join('\n')}\n`;
}
