// The environment an --exec command gets: ours without our secrets (the record it needs is on its stdin).

/** Always removed: they hold a key, a token or a password whatever their form (also what server text is masked for). */
export const SECRET_ENV_NAMES = [
  'RECALL_FEED_API_KEY',
  'DEEPRECALL_API_KEY',
  'RECALL_FEED_WEBHOOK',
  'RECALL_FEED_SMTP_URL',
  'PGPASSWORD',
  // A healthchecks ping URL: its path is the check's token; a child could ping (or silence) the job's monitor.
  'RECALL_FEED_MONITOR',
  'RECALL_FEED_MCP_TOKEN',
];

/** Removed when their value is a URL that carries a password (a database or a proxy with credentials). */
const PROXY_NAME = /^(https?|all|ftp|no|socks5?)_proxy$/i;

/** `scheme://user:pw@host`, `user:pw@host:port` (a proxy without a scheme), or `?password=…`. */
function holdsPassword(value: string): boolean {
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? value : `http://${value}`;
  try {
    const url = new URL(withScheme);
    if (url.password !== '' || url.searchParams.has('password')) return true;
  } catch {
    // Not a URL: look for userinfo with a colon all the same, as a proxy might still be given it.
  }
  return /^[^/@\s]*:\/\/[^/@\s]*:[^/@\s]*@/.test(withScheme);
}

export function childEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_ENV_NAMES.includes(name.toUpperCase())) continue;
    if ((PROXY_NAME.test(name) || name.toUpperCase() === 'RECALL_FEED_DB') && holdsPassword(value)) continue;
    out[name] = value;
  }
  return out;
}
