// A real SMTP server on loopback (smtp-server) that keeps what arrived, parsed with mailparser; closed when the test ends.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { deferCleanup } from './cleanup.js';

export interface ReceivedMail {
  /** Envelope recipients, as the client gave them in RCPT TO. */
  rcpt: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The recall ids the text part lists (`id 123` on each item's facts line). */
  ids: string[];
  /** Files attached, their content as UTF-8 text. */
  attachments: { filename: string; contentType: string; content: string }[];
}

export interface SmtpOptions {
  user?: string;
  pass?: string;
  /** Answer every message with this permanent refusal instead of 250. */
  refuse?: string;
  /** Called with each message once it is fully read, before the server answers the client. */
  beforeAnswer?: (mail: ReceivedMail, n: number) => void;
}

/** The ids listed in a digest or alert text: each item's facts line ends with `id <n>`. */
export const idsIn = (text: string) => [...text.matchAll(/\bid (\d+)\b/g)].map((m) => m[1] as string);

export async function smtpServer(opts: SmtpOptions = {}) {
  const user = opts.user ?? 'mailer';
  const pass = opts.pass ?? 's3cret-Pa55';
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    // Plain SMTP on loopback, as the CLI allows there; no STARTTLS offered, so no self-signed certificate.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) cb(null, { user });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          const mail: ReceivedMail = {
            rcpt: session.envelope.rcptTo.map((r) => r.address),
            from: parsed.from?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            ids: idsIn(text),
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content.toString('utf8'),
            })),
          };
          if (opts.refuse) {
            const err = new Error(opts.refuse) as Error & { responseCode: number };
            err.responseCode = 554;
            cb(err);
            return;
          }
          received.push(mail);
          opts.beforeAnswer?.(mail, received.length);
          cb();
        })
        .catch(cb);
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  deferCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, user, pass, received, url: `smtp://${user}:${encodeURIComponent(pass)}@127.0.0.1:${port}` };
}
