// Which proxy a request goes through (HTTP_PROXY, HTTPS_PROXY and NO_PROXY as curl reads them), the
// Proxy-Authorization it carries, and the connections made through a loopback test proxy.
import type { RequestOptions } from 'node:https';
import { describe, expect, it } from 'vitest';
import { Connections } from '../../src/api/connections.js';
import { ConnectionError, InvalidParamsError, ProxyAuthError, TimeoutError } from '../../src/api/api-errors.js';
import { bypassesProxy, proxyAuthorization, proxyFor, proxyName, type ProxySettings } from '../../src/api/proxy.js';
import { send } from '../../src/api/transport.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { handlerServer } from '../helpers/handler-server.js';
import { selfSignedCert } from '../helpers/self-signed.js';
import { closedPort, silentServer, testProxy } from '../helpers/test-proxy.js';
import { until } from '../helpers/wait.js';

const P1 = 'http://proxy-one.corp:3128';
const P2 = 'http://proxy-two.corp:8080';

describe('proxyFor', () => {
  // [what, settings, address, the proxy's href or undefined for a direct connection]
  const cases: [string, ProxySettings, string, string | undefined][] = [
    ['nothing set', {}, 'https://api.example.com/v1', undefined],
    ['http uses httpProxy', { httpProxy: P1 }, 'http://api.example.com/v1', 'http://proxy-one.corp:3128/'],
    ['https falls back to httpProxy', { httpProxy: P1 }, 'https://api.example.com/v1', 'http://proxy-one.corp:3128/'],
    [
      'https prefers httpsProxy',
      { httpProxy: P1, httpsProxy: P2 },
      'https://api.example.com',
      'http://proxy-two.corp:8080/',
    ],
    [
      'http ignores httpsProxy',
      { httpProxy: P1, httpsProxy: P2 },
      'http://api.example.com',
      'http://proxy-one.corp:3128/',
    ],
    ['httpsProxy alone serves no http', { httpsProxy: P2 }, 'http://api.example.com', undefined],
    [
      'an empty httpsProxy falls back',
      { httpsProxy: '', httpProxy: P1 },
      'https://api.example.com',
      'http://proxy-one.corp:3128/',
    ],
    ['an empty httpProxy is none', { httpProxy: '' }, 'http://api.example.com', undefined],
    ['empty strings everywhere', { httpProxy: '', httpsProxy: '', noProxy: '' }, 'https://api.example.com', undefined],
    ['blanks are none', { httpProxy: '  \t' }, 'http://api.example.com', undefined],
    [
      'surrounding blanks are trimmed',
      { httpProxy: `  ${P1}\n` },
      'http://api.example.com',
      'http://proxy-one.corp:3128/',
    ],
    [
      'a bare host:port is http',
      { httpsProxy: 'proxy.corp:3128' },
      'https://api.example.com',
      'http://proxy.corp:3128/',
    ],
    ['a bare host is http on 80', { httpProxy: 'proxy.corp' }, 'http://api.example.com', 'http://proxy.corp/'],
    [
      'an https proxy',
      { httpsProxy: 'https://proxy.corp:8443' },
      'https://api.example.com',
      'https://proxy.corp:8443/',
    ],
    [
      'scheme and host in capitals',
      { httpProxy: 'HTTP://PROXY.Corp:3128' },
      'http://api.example.com',
      'http://proxy.corp:3128/',
    ],
    [
      'an IPv6 proxy',
      { httpProxy: 'http://[2001:db8::7]:3128' },
      'http://api.example.com',
      'http://[2001:db8::7]:3128/',
    ],
    ['NO_PROXY covers the host', { httpProxy: P1, noProxy: 'example.com' }, 'http://api.example.com', undefined],
    [
      'NO_PROXY for another host',
      { httpProxy: P1, noProxy: 'example.org' },
      'http://api.example.com',
      'http://proxy-one.corp:3128/',
    ],
    ['localhost', { httpProxy: P1, httpsProxy: P2 }, 'http://localhost:8080/v1', undefined],
    ['https to localhost', { httpProxy: P1, httpsProxy: P2 }, 'https://localhost/v1', undefined],
    ['127.0.0.1', { httpProxy: P1 }, 'http://127.0.0.1:4010/v1', undefined],
    ['anywhere in 127/8', { httpProxy: P1 }, 'http://127.5.6.7:99/', undefined],
    ['127.0.0.1 spelt as a number', { httpProxy: P1 }, 'http://2130706433:4010/', undefined],
    ['IPv6 loopback', { httpProxy: P1, httpsProxy: P2 }, 'http://[::1]:4010/v1', undefined],
    ['IPv6 loopback over https', { httpProxy: P1, httpsProxy: P2 }, 'https://[::1]/v1', undefined],
    [
      'a name that only starts like localhost',
      { httpProxy: P1 },
      'http://localhost.example.com/',
      'http://proxy-one.corp:3128/',
    ],
    [
      'an address that only starts like 127',
      { httpProxy: P1 },
      'http://127.0.0.1.example.com/',
      'http://proxy-one.corp:3128/',
    ],
  ];
  it.each(cases)('%s', (_what, settings, address, expected) => {
    expect(proxyFor(new URL(address), settings)?.href).toBe(expected);
  });

  // An invalid setting throws, and its message carries none of the setting's text: it may hold a password.
  const invalid: [string, ProxySettings, string][] = [
    ['an unclosed IPv6 bracket', { httpsProxy: 'http://user:secret@[bad' }, 'https://api.example.com/'],
    ['a socks proxy', { httpsProxy: 'socks5://user:secret@proxy.corp:1080' }, 'https://api.example.com/'],
    ['an ftp proxy', { httpProxy: 'ftp://user:secret@proxy.corp' }, 'http://api.example.com/'],
    ['a scheme and nothing else', { httpProxy: 'http://' }, 'http://api.example.com/'],
    ['a bad port', { httpProxy: 'user:secret@proxy.corp:99999' }, 'http://api.example.com/'],
    ['a bad https setting used for https', { httpProxy: P1, httpsProxy: 'http://user:secret@[bad' }, 'https://x.test/'],
  ];
  it.each(invalid)('%s: InvalidParamsError without the setting in its message', (_what, settings, address) => {
    let error: unknown;
    try {
      proxyFor(new URL(address), settings);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidParamsError);
    const message = (error as Error).message;
    expect(message).toContain(`${new URL(address).protocol}//`);
    for (const part of ['secret', 'user', 'bad', 'proxy.corp', 'socks5', 'ftp:', '99999']) {
      expect(message).not.toContain(part);
    }
  });

  it('an invalid setting for https does not break plain http, which does not use it', () => {
    const settings = { httpProxy: P1, httpsProxy: 'http://user:secret@[bad' };
    expect(proxyFor(new URL('http://api.example.com/'), settings)?.href).toBe('http://proxy-one.corp:3128/');
  });
});

describe('bypassesProxy', () => {
  // [address, NO_PROXY, reached directly]
  const cases: [string, string | undefined, boolean][] = [
    ['http://api.example.com/', undefined, false],
    ['http://api.example.com/', '', false],
    ['http://api.example.com/', ' , ', false],
    ['http://example.com/', 'example.com', true],
    ['http://api.example.com/', 'example.com', true],
    ['http://a.b.api.example.com/', 'example.com', true],
    ['http://badexample.com/', 'example.com', false],
    ['http://example.com.evil.test/', 'example.com', false],
    ['http://example.co/', 'example.com', false],
    ['http://api.example.com/', '.example.com', true],
    ['http://example.com/', '.example.com', true],
    ['http://notexample.com/', '.example.com', false],
    ['http://api.example.com/', 'api.example.com', true],
    ['http://example.com/', 'api.example.com', false],
    ['http://api.example.com/', '*', true],
    ['https://anything.test:8443/', '*', true],
    ['http://api.example.com/', 'EXAMPLE.COM', true],
    ['http://API.Example.Com/', 'example.com', true],
    ['http://api.example.com/', '.Example.COM', true],
    // Lists: commas, blanks or both.
    ['http://api.example.com/', 'foo.test,example.com', true],
    ['http://api.example.com/', 'foo.test, example.com', true],
    ['http://api.example.com/', 'foo.test example.com', true],
    ['http://api.example.com/', ' foo.test ,\texample.com\n', true],
    ['http://api.example.com/', 'foo.test,,example.com,', true],
    ['http://api.example.com/', 'foo.test, bar.test', false],
    // Ports: the entry's port must be the address's, default ports included.
    ['http://api.example.com:8080/', 'example.com:8080', true],
    ['http://api.example.com/', 'example.com:8080', false],
    ['http://api.example.com:8081/', 'example.com:8080', false],
    ['http://api.example.com/', 'api.example.com:80', true],
    ['https://api.example.com/', 'api.example.com:443', true],
    ['https://api.example.com/', 'api.example.com:80', false],
    ['http://api.example.com:443/', 'api.example.com:443', true],
    ['https://api.example.com:8443/', '.example.com:8443', true],
    ['https://api.example.com:8443/', 'foo.test:8443, example.com:9443', false],
    // Addresses.
    ['http://10.1.2.3/', '10.1.2.3', true],
    ['http://10.1.2.30/', '10.1.2.3', false],
    ['http://10.1.2.3:8080/', '10.1.2.3:8080', true],
    ['http://[2001:db8::1]:8080/', '[2001:db8::1]', true],
    ['http://[2001:db8::1]:8080/', '[2001:db8::1]:8080', true],
    ['http://[2001:db8::1]:8080/', '[2001:db8::1]:9090', false],
    ['http://[2001:db8::2]/', '[2001:db8::1]', false],
    // Without brackets, as curl reads IPv6 entries.
    ['http://[2001:db8::1]:8080/', '2001:db8::1', true],
    ['https://[2001:db8::1]/', 'example.com, 2001:DB8::1', true],
    ['http://[2001:db8::2]/', '2001:db8::1', false],
    ['http://[fe80::1]/', '::1', false],
    // Loopback, whatever NO_PROXY says.
    ['http://localhost/', undefined, true],
    ['http://localhost:4010/', 'example.com', true],
    ['https://LOCALHOST/', '', true],
    ['http://127.0.0.1:4010/', undefined, true],
    ['http://127.255.0.9/', undefined, true],
    ['http://[::1]/', undefined, true],
    ['http://[::1]:4010/', '', true],
    ['https://[0:0:0:0:0:0:0:1]:4010/', '', true],
    ['http://128.0.0.1/', undefined, false],
  ];
  it.each(cases)('%s with NO_PROXY %j: %s', (address, noProxy, direct) => {
    expect(bypassesProxy(new URL(address), noProxy)).toBe(direct);
  });
});

describe('proxyAuthorization and proxyName', () => {
  // Expected headers are base64 of the decoded user:password, computed with `printf %s … | base64`.
  const cases: [string, string | undefined][] = [
    ['http://proxy.corp:3128', undefined],
    ['http://proxy.corp:3128/', undefined],
    ['http://user:p%40ss@proxy.corp:3128', 'Basic dXNlcjpwQHNz'],
    // An unencoded @ in the password: the last @ ends the credentials.
    ['http://user:p@ss@proxy.corp:3128', 'Basic dXNlcjpwQHNz'],
    ['http://alice:s3cret@proxy.corp', 'Basic YWxpY2U6czNjcmV0'],
    ['http://me%40corp.example:p%40ss%3Aw%2Frd@proxy.corp', 'Basic bWVAY29ycC5leGFtcGxlOnBAc3M6dy9yZA=='],
    ['http://dom%5Cuser:p%20%C3%A4%25@proxy.corp', 'Basic ZG9tXHVzZXI6cCDDpCU='],
    ['http://bob@proxy.corp', 'Basic Ym9iOg=='],
    ['http://:tok@proxy.corp', 'Basic OnRvaw=='],
    // A % that starts no escape is sent as it is (curl does the same), around escapes that are decoded.
    ['http://pa%ss:x%zz%41@proxy.corp', 'Basic cGElc3M6eCV6ekE='],
  ];
  it.each(cases)('%s → %s', (proxy, expected) => {
    expect(proxyAuthorization(new URL(proxy))).toBe(expected);
  });

  it.each([
    ['http://user:secret@proxy.corp:3128', 'proxy.corp:3128'],
    ['http://user:secret@proxy.corp', 'proxy.corp:80'],
    ['https://user:secret@proxy.corp', 'proxy.corp:443'],
    ['http://[2001:db8::7]:3128', '[2001:db8::7]:3128'],
  ])('proxyName(%s) is %s, without credentials', (proxy, expected) => {
    expect(proxyName(new URL(proxy))).toBe(expected);
  });
});

function connectionsFor(proxy: ProxySettings): Connections {
  const connections = new Connections(proxy);
  deferCleanup(() => connections.close());
  return connections;
}

const sendOpts = (connections: Connections, timeoutMs = 10_000) => ({
  connections,
  headers: { 'x-test': 'yes' },
  timeoutMs,
  maxBytes: 1_000_000,
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('Connections through a proxy', () => {
  it('plain http: the whole address as the target, the API host as Host, credentials to the proxy only', async () => {
    const upstream = await handlerServer((_req, res) => res.end('hello through the proxy'));
    const proxy = await testProxy({ forwardTo: upstream.url });
    const connections = connectionsFor({ httpProxy: `http://user:p%40ss@127.0.0.1:${proxy.port}` });
    const url = new URL('http://api.example.test/v1/recalls/feed?limit=3');
    const first = await send(url, sendOpts(connections));
    const second = await send(url, sendOpts(connections));
    expect([first.status, first.body, second.body]).toEqual([
      200,
      'hello through the proxy',
      'hello through the proxy',
    ]);
    expect(proxy.requests).toEqual([
      {
        method: 'GET',
        target: 'http://api.example.test/v1/recalls/feed?limit=3',
        host: 'api.example.test',
        proxyAuthorization: 'Basic dXNlcjpwQHNz',
      },
      {
        method: 'GET',
        target: 'http://api.example.test/v1/recalls/feed?limit=3',
        host: 'api.example.test',
        proxyAuthorization: 'Basic dXNlcjpwQHNz',
      },
    ]);
    expect(upstream.requests.map((r) => [r.url, r.headers['x-test'], r.headers['proxy-authorization']])).toEqual([
      ['/v1/recalls/feed?limit=3', 'yes', undefined],
      ['/v1/recalls/feed?limit=3', 'yes', undefined],
    ]);
  });

  it('plain http through a proxy that is not there: the error names the proxy, not the API', async () => {
    const port = await closedPort();
    const connections = connectionsFor({ httpProxy: `http://user:secret@127.0.0.1:${port}` });
    const err = await failure(send(new URL('http://api.example.test/v1/x'), sendOpts(connections)));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err?.message).toBe(`connection refused by the proxy 127.0.0.1:${port}`);
  });

  it('plain http: a 407 is the proxy refusing, a ProxyAuthError naming it, not an answer of the API', async () => {
    const proxy = await testProxy({ requestStatus: 407 });
    const connections = connectionsFor({ httpProxy: `http://user:secret@127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('http://api.example.test/v1/recalls/feed'), sendOpts(connections)));
    expect(err).toBeInstanceOf(ProxyAuthError);
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a request to api.example.test: it asks for credentials (HTTP 407)`,
    );
    // The same status from the API itself (no proxy in the way) is its answer, for the client to judge.
    const api = await handlerServer((_req, res) => res.writeHead(407).end());
    const direct = await send(new URL(`${api.url}/v1`), sendOpts(connectionsFor({})));
    expect(direct.status).toBe(407);
  });

  it('https: a CONNECT answered 407 is a ProxyAuthError naming the proxy and the target', async () => {
    const proxy = await testProxy({ connectStatus: 407 });
    const connections = connectionsFor({ httpsProxy: `http://user:secret@127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('https://api.example.test/v1/recalls/feed'), sendOpts(connections)));
    expect(err).toBeInstanceOf(ProxyAuthError);
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:443: it asks for credentials (HTTP 407)`,
    );
    expect(proxy.requests).toEqual([
      {
        method: 'CONNECT',
        target: 'api.example.test:443',
        host: 'api.example.test:443',
        proxyAuthorization: 'Basic dXNlcjpzZWNyZXQ=',
      },
    ]);
  });

  it('https: another refusal says its status', async () => {
    const proxy = await testProxy({ connectStatus: 403 });
    const connections = connectionsFor({ httpsProxy: `127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('https://api.example.test:8443/v1'), sendOpts(connections)));
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:8443: it answered HTTP 403`,
    );
    expect((err as ConnectionError).causeCode).toBe('PROXY_CONNECT');
    expect(proxy.requests.map((r) => [r.target, r.proxyAuthorization])).toEqual([['api.example.test:8443', undefined]]);
  });

  it('https: an IPv6 target is bracketed in the CONNECT target', async () => {
    const proxy = await testProxy({ connectStatus: 407 });
    const connections = connectionsFor({ httpsProxy: proxy.url });
    await failure(send(new URL('https://[2001:db8::5]/v1'), sendOpts(connections)));
    expect(proxy.requests.map((r) => r.target)).toEqual(['[2001:db8::5]:443']);
  });

  it('https: a proxy that is not there is named as the one that refused', async () => {
    const port = await closedPort();
    const connections = connectionsFor({ httpProxy: `http://user:secret@127.0.0.1:${port}` });
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(connections)));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err?.message).toBe(`connection refused by the proxy 127.0.0.1:${port}`);
  });

  it('https: a proxy that never answers CONNECT ends in the timeout, and close() abandons the tunnel', async () => {
    const silent = await silentServer();
    const connections = connectionsFor({ httpsProxy: `127.0.0.1:${silent.port}` });
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(connections, 300)));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err?.message).toBe(`no complete answer from the proxy 127.0.0.1:${silent.port} within the timeout`);
    expect(silent.accepted()).toBe(1);
    // A second request while the first tunnel still hangs: close() must end it rather than wait for it.
    const pending = failure(send(new URL('https://api.example.test/v1'), sendOpts(connections, 60_000)));
    await until('the second CONNECT', () => silent.accepted() === 2);
    connections.close();
    expect(await pending).toBeInstanceOf(ConnectionError);
  });

  it('https: a tunnel that opened to an API that never answers: the timeout names the API, not the proxy', async () => {
    const silentApi = await silentServer();
    const proxy = await testProxy({ tunnelTo: silentApi.port });
    const connections = connectionsFor({ httpsProxy: proxy.url });
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(connections, 300)));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err?.message).toBe('no complete answer from api.example.test within the timeout');
    expect(proxy.requests.map((r) => r.target)).toEqual(['api.example.test:443']);
    expect(silentApi.accepted()).toBe(1);
  });

  const cert = selfSignedCert('api.example.test');
  it.skipIf(cert === undefined)(
    'https: TLS to the API inside the tunnel, one tunnel kept alive for the next request',
    async () => {
      const api = await handlerServer((req, res) => res.end(`tls ok ${req.url}`), cert);
      const proxy = await testProxy({ tunnelTo: Number(new URL(api.url).port) });
      const connections = connectionsFor({ httpProxy: `http://user:p%40ss@127.0.0.1:${proxy.port}` });
      const get = async (path: string) => {
        const url = new URL(`https://api.example.test${path}`);
        const route = await connections.route(url);
        expect(route.via).toBeUndefined();
        // The test's own CA, as NODE_EXTRA_CA_CERTS gives it to the CLI: the agent passes it to tls.connect.
        return new Promise<string>((resolve, reject) => {
          const req = route.request({ ...route.options, ca: cert!.cert } as RequestOptions, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (body += d));
            res.on('end', () => resolve(body));
          });
          req.on('error', reject);
          req.end();
        });
      };
      expect(await get('/v1/a')).toBe('tls ok /v1/a');
      expect(await get('/v1/b')).toBe('tls ok /v1/b');
      expect(proxy.requests.map((r) => [r.method, r.target, r.proxyAuthorization])).toEqual([
        ['CONNECT', 'api.example.test:443', 'Basic dXNlcjpwQHNz'],
      ]);
      expect(api.connections()).toBe(1);
      expect(api.requests.map((r) => r.headers.host)).toEqual(['api.example.test', 'api.example.test']);
    },
  );

  it.skipIf(cert === undefined)('https: the certificate is checked against the API name, not the proxy', async () => {
    const other = selfSignedCert('other.example.test')!;
    const api = await handlerServer((_req, res) => res.end('should not get here'), other);
    const proxy = await testProxy({ tunnelTo: Number(new URL(api.url).port) });
    const connections = connectionsFor({ httpsProxy: proxy.url });
    const url = new URL('https://api.example.test/v1');
    const route = await connections.route(url);
    const err = await new Promise<Error & { code?: string }>((resolve) => {
      const req = route.request({ ...route.options, ca: other.cert } as RequestOptions, () =>
        resolve(new Error('answered')),
      );
      req.on('error', resolve);
      req.end();
    });
    expect(err.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(api.requests).toEqual([]);
  });
});
