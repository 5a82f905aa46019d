// Text folding shared by record filters, full-text search and catalogue matching: no case, no accents.

/** Lower case, accents removed (NFD, combining marks dropped), whitespace runs collapsed, trimmed. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
