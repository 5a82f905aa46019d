// Percent-escapes in a URL's user name or password, decoded the way curl reads them.

/** %XX escapes decoded; a % that starts none (a password's own %, never escaped) stays as it is, as curl sends it. */
export function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
