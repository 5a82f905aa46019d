// Masking of secrets (the API key) for display: enough to recognise a key, never enough to use it.

/** First 8 characters + `…` + last 4; keys of 12 characters or fewer show as `****`. */
export function maskSecret(secret: string): string {
  const chars = Array.from(secret);
  if (chars.length <= 12) return '****';
  return `${chars.slice(0, 8).join('')}…${chars.slice(-4).join('')}`;
}
