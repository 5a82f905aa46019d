// A digest in each of its formats: one table from format to renderer, each loaded only when asked for.
import { jsonText } from '../control-escapes.js';
import type { DigestFormat } from '../format-kinds.js';
import type { Digest } from './digest-view.js';

const DIGEST_RENDERERS: Record<DigestFormat, (d: Digest, width: number) => Promise<string>> = {
  text: async (d, width) => (await import('./digest-text.js')).digestText(d, width),
  markdown: async (d) => (await import('./digest-text.js')).digestMarkdown(d),
  html: async (d) => (await import('./digest-html.js')).digestHtml(d),
  json: async (d) => `${jsonText(d)}\n`,
};

/** The digest as the format named `format` writes it; `width` is the terminal's, for text. */
export function renderDigest(d: Digest, format: string, width: number): Promise<string> {
  if (!Object.hasOwn(DIGEST_RENDERERS, format)) throw new TypeError(`the digest has no ${format} form`);
  return DIGEST_RENDERERS[format as DigestFormat](d, width);
}
