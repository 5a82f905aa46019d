// The evidence report as a document: one table from format to renderer (csv is rows, through the csv renderer).
import { escapeJsonControls } from '../control-escapes.js';
import type { ReportFormat } from '../format-kinds.js';
import { reportHtml } from './report-html.js';
import { reportMarkdown } from './report-markdown.js';
import type { ReportData } from './report-model.js';

export type ReportDocumentFormat = Exclude<ReportFormat, 'csv'>;

const REPORT_RENDERERS: Record<ReportDocumentFormat, (data: ReportData) => string> = {
  html: reportHtml,
  markdown: reportMarkdown,
  json: (data) => `${escapeJsonControls(JSON.stringify(data, null, 2))}\n`,
};

/** The report as the format named `format` writes it (csv is rows: not here). */
export function renderReport(format: string, data: ReportData): string {
  if (!Object.hasOwn(REPORT_RENDERERS, format)) throw new TypeError(`the report has no ${format} document`);
  return REPORT_RENDERERS[format as ReportDocumentFormat](data);
}
