// Doctor's delivery checks (--check-delivery): the SMTP server greets and takes the login, the webhook's host
// accepts a connection. Never a message, never a POST.
import net from 'node:net';
import tls from 'node:tls';
import { scrub, smtpTransport } from '../../actions/email-send.js';
import { parseSmtpUrl } from '../../actions/email-smtp.js';
import { checkWebhookUrl, maskWebhookUrl } from '../../actions/webhook-url.js';
import { isLoopbackHost } from '../../api/loopback.js';
import { portOf, proxyFor, proxyName, type ProxySettings } from '../../api/proxy.js';
import { type CheckResult, fail, messageOf, ok } from './check.js';

/** EHLO, STARTTLS where required and the login, as nodemailer's verify does: no message is sent. */
export async function checkSmtp(raw: string, timeoutMs: number): Promise<CheckResult> {
  let server: ReturnType<typeof parseSmtpUrl>;
  try {
    server = parseSmtpUrl(raw);
  } catch (err) {
    return fail('smtp', messageOf(err), 'check smtp-url (recall-feed config set smtp-url)');
  }
  const transport = await smtpTransport(server, timeoutMs);
  try {
    await transport.verify();
    return ok('smtp', `${server.shown} greets${server.user ? ' and accepts the login' : ''}`);
  } catch (err) {
    return fail(
      'smtp',
      `${server.shown}: ${scrub(messageOf(err), server)}`,
      'check the host, port and login in smtp-url',
    );
  } finally {
    transport.close();
  }
}

/**
 * A TCP (and, for https, TLS) connection to the webhook's host, closed at once; when the proxy rules send
 * the webhook through a proxy, a TCP connection to that proxy (what lies behind it is not contacted). `source`:
 * where the URL came from (`--webhook`, `RECALL_FEED_WEBHOOK`, "the profile's webhook"), as a refusal names it.
 */
export async function checkWebhook(
  raw: string,
  source: string,
  timeoutMs: number,
  proxies: ProxySettings,
): Promise<CheckResult> {
  let url: URL;
  try {
    url = checkWebhookUrl(raw, source);
  } catch (err) {
    return fail('webhook', messageOf(err));
  }
  const shown = maskWebhookUrl(url);
  let proxy: URL | undefined;
  try {
    // As the agent routes it: loopback never through a proxy.
    proxy = isLoopbackHost(url.hostname) ? undefined : proxyFor(url, proxies);
  } catch (err) {
    return fail('webhook', messageOf(err), 'fix HTTPS_PROXY / HTTP_PROXY');
  }
  const to = proxy ?? url;
  const port = portOf(to);
  const host = to.hostname.replace(/^\[|\]$/g, '');
  const tlsToo = to.protocol === 'https:';
  try {
    await new Promise<void>((resolve, reject) => {
      const socket = tlsToo
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }, () => done())
        : net.connect({ host, port }, () => done());
      const timer = setTimeout(() => finish(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
      const finish = (err?: Error) => {
        clearTimeout(timer);
        socket.destroy();
        if (err) reject(err);
        else resolve();
      };
      const done = () => finish();
      socket.on('error', finish);
    });
    if (proxy) return ok('webhook', `${shown}: its proxy ${proxyName(proxy)} accepts connections (nothing sent)`);
    return ok('webhook', `${shown} accepts connections (nothing posted)`);
  } catch (err) {
    const via = proxy ? ` (through ${proxyName(proxy)})` : '';
    return fail('webhook', `${shown}${via}: ${messageOf(err)}`, 'check the webhook URL, the proxy and the network');
  }
}
