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
  /** Each leaf MIME part as it came over the wire: its type, transfer encoding and body bytes (still encoded). */
  parts: WirePart[];
  /** The message's size as sent, in bytes. */
  bytes: number;
  /** The reply `answer` gave it (`552 5.3.4 …`); undefined when it was accepted. */
  reply?: string;
}

export interface WirePart {
  contentType: string;
  encoding: string;
  bytes: number;
}

/** A header's value in a block of headers (unfolded), lower-cased name. */
function header(head: string, name: string): string {
  const unfolded = head.replace(/\r\n[ \t]+/g, ' ');
  const line = unfolded.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line === undefined ? '' : line.slice(name.length + 1).trim();
}

/** The leaf parts of a raw message, split on its multipart boundaries as sent (no decoding). */
export function wireParts(raw: string): WirePart[] {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const type = header(head, 'content-type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!/^multipart\//i.test(type) || boundary === undefined) {
    return [
      {
        contentType: type.split(';')[0]!.toLowerCase(),
        encoding: header(head, 'content-transfer-encoding').toLowerCase() || '7bit',
        bytes: Buffer.byteLength(body.replace(/\r\n$/, '')),
      },
    ];
  }
  const pieces = body.split(`--${boundary}`);
  // Before the first boundary: the preamble; after the closing `--boundary--`: the epilogue.
  return pieces.slice(1, -1).flatMap((piece) => wireParts(piece.replace(/^\r\n/, '').replace(/\r\n$/, '')));
}

export interface SmtpOptions {
  user?: string;
  pass?: string;
  /** Answer every message with this permanent refusal instead of 250. */
  refuse?: string;
  /** Called with each message once it is fully read, before the server answers the client. */
  beforeAnswer?: (mail: ReceivedMail, n: number) => void;
  /**
   * Asked of each message (`n`: how many came so far, this one included) before the server answers: a reply such as
   * `552 5.3.4 …` refuses it with that code and text, undefined accepts it. Every message is kept in `log`.
   */
  answer?: (mail: ReceivedMail, n: number) => string | undefined | Promise<string | undefined>;
}

/** The `--email` flags for a message to `to` through `url`. */
export function mailFlags(url: string, to = 'team@example.test'): string[] {
  return ['--email', to, '--email-from', 'recalls@example.test', '--smtp-url', url];
}

/** The ids listed in a digest or alert text: each item's facts line ends with `id <n>`. */
export const idsIn = (text: string) => [...text.matchAll(/\bid (\d+)\b/g)].map((m) => m[1] as string);

export async function smtpServer(opts: SmtpOptions = {}) {
  const user = opts.user ?? 'mailer';
  const pass = opts.pass ?? 's3cret-Pa55';
  const received: ReceivedMail[] = [];
  const log: ReceivedMail[] = [];
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
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (raw) => ({ raw, parsed: await simpleParser(raw) }))
        .then(async ({ raw, parsed }) => {
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
            parts: wireParts(raw.toString('latin1')),
            bytes: raw.length,
          };
          log.push(mail);
          mail.reply = await opts.answer?.(mail, log.length);
          if (mail.reply !== undefined) {
            const err = new Error(mail.reply.slice(4)) as Error & { responseCode: number };
            err.responseCode = Number(mail.reply.slice(0, 3));
            cb(err);
            return;
          }
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
  return { port, user, pass, received, log, url: `smtp://${user}:${encodeURIComponent(pass)}@127.0.0.1:${port}` };
}
