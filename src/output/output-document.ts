// A document or status answer a job hands over whole, and how the chosen format writes it: a job never names a format.
import { escapeJsonControls } from './control-escapes.js';
import type { DocumentPart, OutputFormat } from './output-format.js';
import type { RenderOptions } from './render-contract.js';

/** Rows a document is written as in a tabular format (csv), through the format's renderer. */
export interface DocumentRows {
  spec: Omit<RenderOptions, 'format' | 'out' | 'width' | 'color' | 'toTerminal'>;
  rows: readonly Record<string, unknown>[];
}

/**
 * The forms a job can give its answer in; the chosen format writes the first of its `documentParts` the
 * document has. Give every form the command's formats need.
 */
export interface OutputDocument {
  /** Rendered by the document's own renderer for `format` (the digest's, the report's). */
  text?: (format: OutputFormat) => string | Promise<string>;
  /** Text for a person. */
  people?: () => string | Promise<string>;
  /** One JSON value, printed indented. */
  whole?: unknown;
  /** One JSON value, printed on one line. */
  one?: unknown;
  /** JSON values, one a line. */
  items?: readonly unknown[];
  rows?: DocumentRows;
}

/** What writing `doc` in `format` comes to: text, or rows for the format's renderer. */
export type DocumentForm = { text: string } | { rows: DocumentRows };

function has(doc: OutputDocument, part: DocumentPart): boolean {
  return doc[part] !== undefined;
}

const jsonLine = (value: unknown) => `${escapeJsonControls(JSON.stringify(value))}\n`;

/** The form `format` writes `doc` in; a document without any form the format writes is a job's bug. */
export async function documentForm(format: OutputFormat, doc: OutputDocument): Promise<DocumentForm> {
  const part = format.documentParts.find((p) => has(doc, p));
  switch (part) {
    case 'text':
      return { text: await (doc.text as NonNullable<OutputDocument['text']>)(format) };
    case 'people':
      return { text: await (doc.people as NonNullable<OutputDocument['people']>)() };
    case 'whole':
      return { text: `${escapeJsonControls(JSON.stringify(doc.whole, null, 2))}\n` };
    case 'one':
      return { text: jsonLine(doc.one) };
    case 'items':
      return { text: (doc.items ?? []).map(jsonLine).join('') };
    case 'rows':
      return { rows: doc.rows as DocumentRows };
    default:
      throw new TypeError(`this answer has no form the ${format.name} format writes`);
  }
}
