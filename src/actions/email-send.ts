// Sends one e-mail through the SMTP server (nodemailer, loaded only when a message goes out); never names the password.
import type { AttemptResult } from './action.js';
import type { SmtpServer } from './email-smtp.js';

export interface MailMessage {
  from: string;
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  /** Files sent with it (the digest's CSV); their content in memory, never read from a path. */
  attachments?: { filename: string; content: string; contentType: string }[];
  /**
   * Send the text parts quoted-printable (or 7bit, when plain ASCII in short lines) rather than let the library
   * pick base64 for text with many non-Latin characters: a part's size as sent then has the bound the digest's
   * budget reckons with (src/output/digest/fit-budget.ts, wireBytes).
   */
  quotedPrintable?: boolean;
}

/** The outcome of one attempt; `refused` when the server answered with a permanent (5xx) refusal. */
export interface SendResult extends AttemptResult {
  refused?: boolean;
  /** The refusal was for the message's size (552, or 5.3.4 / 5.2.3): a smaller message may go through. */
  tooLarge?: boolean;
}

/** A reply of 552 (but a full mailbox, 5.2.2), or of a message too big by its enhanced code (5.3.4, 5.2.3). */
function sizeRefusal(code: number | undefined, message: string): boolean {
  if (/\b5\d\d[ -]5\.(3\.4|2\.3)\b/.test(message)) return true;
  return code === 552 && !/\b552[ -]5\.2\.2\b/.test(message);
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** A run of base64, as an AUTH command's argument that a server may quote back in its refusal. */
const BASE64_RUN = /[A-Za-z0-9+/]{4,}={0,2}/g;

/**
 * The password never appears in what we say, whatever the server or the library put in its message: as typed,
 * URL-encoded, or base64-encoded as the login sent it (AUTH PLAIN: `\0user\0password` in one run; AUTH LOGIN: the
 * user and the password each in a run of its own): any run of base64 that decodes to text holding the password, or
 * to the user alone, goes.
 */
export function scrub(message: string, server: SmtpServer): string {
  let out = message.replace(/[\r\n]+/g, ' ').trim();
  const { pass, user } = server;
  if (!pass) return out;
  for (const secret of [pass, encodeURIComponent(pass)]) out = out.split(secret).join('…');
  return out.replace(BASE64_RUN, (run) => {
    const text = Buffer.from(run, 'base64').toString('utf8');
    return text.includes(pass) || (user !== undefined && text === user) ? '…' : run;
  });
}

/** A nodemailer transport for the server (nodemailer loaded now): for sending, and for doctor's verify. */
export async function smtpTransport(server: SmtpServer, timeoutMs: number) {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    requireTLS: server.requireTls,
    auth: server.user !== undefined ? { user: server.user, pass: server.pass ?? '' } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
}

export async function sendMail(
  server: SmtpServer,
  message: MailMessage,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<SendResult> {
  const transport = await smtpTransport(server, opts.timeoutMs);
  const abort = () => transport.close();
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await transport.sendMail({
      from: message.from,
      to: [...message.to],
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.attachments ? { attachments: message.attachments } : {}),
      ...(message.quotedPrintable ? { textEncoding: 'quoted-printable' as const } : {}),
    });
    return { ok: true };
  } catch (err) {
    const e = err as SmtpError;
    const refused = (e.responseCode !== undefined && e.responseCode >= 500) || e.code === 'EAUTH';
    const why = scrub(e.message, server);
    const result: SendResult = {
      ok: false,
      refused,
      error: `${server.shown} ${refused ? 'refused the message' : 'failed'}: ${why}`,
    };
    if (refused && sizeRefusal(e.responseCode, why)) result.tooLarge = true;
    return result;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    transport.close();
  }
}
