// The SMTP server of --email: its URL (a secret: it carries the password) checked once, shown only masked.
import { isLoopbackHost } from '../api/loopback.js';
import { percentDecode } from '../api/percent-decode.js';

export class SmtpUrlError extends Error {
  override name = 'SmtpUrlError';
}

export class EmailAddressError extends Error {
  override name = 'EmailAddressError';
}

/** What nodemailer needs, and how to name the server without the password. */
export interface SmtpServer {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. */
  secure: boolean;
  /** smtp:// to another machine must upgrade with STARTTLS before the password or a recall is sent. */
  requireTls: boolean;
  user: string | undefined;
  pass: string | undefined;
  /** `smtp://mail.example.com:587`: the server, never the user or the password. */
  shown: string;
}

/** `smtp://user:pass@host:587` or `smtps://…`; plain smtp to another machine only with STARTTLS. */
export function parseSmtpUrl(raw: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SmtpUrlError('the SMTP address is not a URL (expected smtp://user:password@host:587 or smtps://…)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new SmtpUrlError(`the SMTP address must start with smtp:// or smtps://, not ${url.protocol}//`);
  }
  if (url.hostname === '') throw new SmtpUrlError('the SMTP address names no server');
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port,
    secure,
    requireTls: !secure && !isLoopbackHost(url.hostname),
    // Tolerant, as for a proxy's: `100%pure` is a password as typed, not a broken escape.
    user: url.username === '' ? undefined : percentDecode(url.username),
    pass: url.password === '' ? undefined : percentDecode(url.password),
    shown: `${url.protocol}//${url.hostname}:${port}`,
  };
}

/** The server part of an SMTP URL for `config list`; `(smtp)` when it cannot be read. */
export function maskSmtpUrl(raw: string): string {
  try {
    return parseSmtpUrl(raw).shown;
  } catch {
    return '(smtp)';
  }
}

const ADDRESS = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.?[^\s@,;<>"()[\]\\]*$/;

/** `a@example.com,b@example.com`: each a plain address (no display name: nothing to quote or inject). */
export function parseAddresses(raw: string, flag: string): string[] {
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  if (list.length === 0) throw new EmailAddressError(`${flag} needs at least one address`);
  const bad = list.find((a) => !ADDRESS.test(a));
  if (bad !== undefined) throw new EmailAddressError(`${flag}: '${bad}' is not an e-mail address`);
  return [...new Set(list)];
}
