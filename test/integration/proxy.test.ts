// Which proxy a request goes through (HTTP_PROXY, HTTPS_PROXY and NO_PROXY as undici's EnvHttpProxyAgent reads
// them, which proxyFor mirrors to name the proxy), the Proxy-Authorization it carries, and requests sent
// through a loopback test proxy.
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InvalidParamsError,
  ProxyAuthError,
  TimeoutError,
  TlsError,
} from '../../src/api/api-errors.js';
import { HttpAgent } from '../../src/api/http-agent.js';
import {
  bypassesProxy,
  envProxyOptions,
  proxyAuthorization,
  proxyFor,
  proxyName,
  type ProxySettings,
} from '../../src/api/proxy.js';
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
    // Without brackets an IPv6 entry matches nothing (undici reads its last `:1` as a port).
    ['http://[2001:db8::1]:8080/', '2001:db8::1', false],
    ['https://[2001:db8::1]/', 'example.com, [2001:DB8::1]', true],
    ['http://[2001:db8::2]/', '2001:db8::1', false],
    ['http://[fe80::1]/', '::1', false],
    // `*.` and `.` prefixes; `*` only as the whole value; no CIDR ranges; a trailing dot is another name.
    ['http://api.example.com/', '*.example.com', true],
    ['http://api.example.com/', ' * ', true],
    ['http://api.example.com/', 'foo.test, *', false],
    ['http://10.1.2.3/', '10.0.0.0/8', false],
    ['http://api.example.com./', 'example.com', false],
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

describe('envProxyOptions: what EnvHttpProxyAgent is built with', () => {
  it('no proxy set: none (one plain Agent)', () => {
    expect(envProxyOptions({})).toBeUndefined();
    expect(envProxyOptions({ httpProxy: ' ', httpsProxy: '', noProxy: 'example.com' })).toBeUndefined();
  });

  it('one proxy for both: its credentials as one token, decoded as curl decodes them, and the addresses without them', () => {
    // printf %s 'us er:p@ss w%' | base64
    expect(envProxyOptions({ httpProxy: 'http://us%20er:p%40ss%20w%@proxy.corp:3128', noProxy: ' a.test ' })).toEqual({
      httpProxy: 'http://proxy.corp:3128/',
      httpsProxy: '',
      noProxy: 'a.test',
      token: 'Basic dXMgZXI6cEBzcyB3JQ==',
    });
    // A user alone is sent as `user:` (undici itself would send nothing).
    expect(envProxyOptions({ httpsProxy: 'bob@proxy.corp' })).toEqual({
      httpProxy: '',
      httpsProxy: 'http://proxy.corp/',
      noProxy: '',
      token: 'Basic Ym9iOg==',
    });
  });

  it('two proxies with different credentials keep each their own, spelt so that undici decodes them right', () => {
    const options = envProxyOptions({ httpProxy: 'http://a:p%40ss@one.corp', httpsProxy: 'http://b:x%zz@two.corp' });
    expect(options).toEqual({
      httpProxy: 'http://a:p%40ss@one.corp/',
      httpsProxy: 'http://b:x%25zz@two.corp/',
      noProxy: '',
    });
    expect(decodeURIComponent(new URL(options!.httpsProxy).password)).toBe('x%zz');
  });

  it('an invalid setting is left out; proxyFor refuses the requests that would use it', () => {
    expect(envProxyOptions({ httpProxy: P1, httpsProxy: 'socks5://user:secret@x' })).toEqual({
      httpProxy: 'http://proxy-one.corp:3128/',
      httpsProxy: '',
      noProxy: '',
    });
  });
});

function agentFor(proxy: ProxySettings, timeoutMs = 10_000): HttpAgent {
  const agent = new HttpAgent({ proxy, timeoutMs });
  deferCleanup(() => agent.close());
  return agent;
}

const sendOpts = (agent: HttpAgent, timeoutMs = 10_000) => ({
  agent,
  headers: { 'x-test': 'yes' },
  timeoutMs,
  maxBytes: 1_000_000,
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('proxyFor names the proxy undici really uses', () => {
  // [address, NO_PROXY]: undici's own choice, seen at a test proxy, must be proxyFor's.
  const cases: [string, string][] = [
    ['http://api.example.test/', ''],
    ['http://api.example.test/', 'example.test'],
    ['http://api.example.test/', '.example.test'],
    ['http://api.example.test/', '*.example.test'],
    ['http://api.example.test/', 'other.test'],
    ['http://api.example.test:8080/', 'example.test:8080'],
    ['http://api.example.test:8081/', 'example.test:8080'],
    ['http://api.example.test/', 'api.example.test:80'],
    ['http://badexample.test/', 'example.test'],
    ['http://api.example.test/', 'foo.test, *'],
    ['http://api.example.test/', '*'],
    ['http://[2001:db8::1]/', '2001:db8::1'],
    ['http://[2001:db8::1]/', '[2001:db8::1]'],
    ['http://10.1.2.3/', '10.0.0.0/8'],
  ];
  it.each(cases)('%s with NO_PROXY %j', async (address, noProxy) => {
    const proxy = await testProxy({ requestStatus: 407 });
    const settings = { httpProxy: proxy.url, noProxy };
    // Where there is no proxy, the request goes out directly and fails (no DNS, no route): only the proxy's log matters.
    // 4 s: on a loaded machine the first request's trip to the proxy took longer than 1.5 s (a CI run saw it time out
    // before the proxy logged it); a direct request fails at once here (no DNS, no route), so the bound costs nothing.
    await failure(send(new URL(address), sendOpts(agentFor(settings, 4000), 4000)));
    const viaProxy = proxy.requests.length > 0;
    expect(proxyFor(new URL(address), settings) !== undefined).toBe(viaProxy);
  });
});

describe('requests through a proxy', () => {
  it('plain http: the whole address as the target, the API host as Host, credentials to the proxy only', async () => {
    const upstream = await handlerServer((_req, res) => res.end('hello through the proxy'));
    const proxy = await testProxy({ forwardTo: upstream.url });
    const agent = agentFor({ httpProxy: `http://user:p%40ss@127.0.0.1:${proxy.port}` });
    const url = new URL('http://api.example.test/v1/recalls/feed?limit=3');
    const first = await send(url, sendOpts(agent));
    const second = await send(url, sendOpts(agent));
    expect([first.status, first.body, second.body]).toEqual([
      200,
      'hello through the proxy',
      'hello through the proxy',
    ]);
    const seen = {
      method: 'GET',
      target: 'http://api.example.test/v1/recalls/feed?limit=3',
      host: 'api.example.test',
      proxyAuthorization: 'Basic dXNlcjpwQHNz',
    };
    expect(proxy.requests).toEqual([seen, seen]);
    expect(upstream.requests.map((r) => [r.url, r.headers['x-test'], r.headers['proxy-authorization']])).toEqual([
      ['/v1/recalls/feed?limit=3', 'yes', undefined],
      ['/v1/recalls/feed?limit=3', 'yes', undefined],
    ]);
  });

  it('plain http through a proxy that is not there: the error names the proxy, not the API', async () => {
    const port = await closedPort();
    const agent = agentFor({ httpProxy: `http://user:secret@127.0.0.1:${port}` });
    const err = await failure(send(new URL('http://api.example.test/v1/x'), sendOpts(agent)));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err?.message).toBe(`connection refused by the proxy 127.0.0.1:${port}`);
  });

  it('plain http: a 407 is the proxy refusing, a ProxyAuthError naming it, not an answer of the API', async () => {
    const proxy = await testProxy({ requestStatus: 407 });
    const agent = agentFor({ httpProxy: `http://user:secret@127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('http://api.example.test/v1/recalls/feed'), sendOpts(agent)));
    expect(err).toBeInstanceOf(ProxyAuthError);
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a request to api.example.test: it asks for credentials (HTTP 407)`,
    );
    // The same status from the API itself (no proxy in the way) is its answer, for the client to judge.
    const api = await handlerServer((_req, res) => res.writeHead(407).end());
    const direct = await send(new URL(`${api.url}/v1`), sendOpts(agentFor({})));
    expect(direct.status).toBe(407);
  });

  it('https: a CONNECT answered 407 is a ProxyAuthError naming the proxy and the target', async () => {
    const proxy = await testProxy({ connectStatus: 407 });
    const agent = agentFor({ httpsProxy: `http://user:secret@127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('https://api.example.test/v1/recalls/feed'), sendOpts(agent)));
    expect(err).toBeInstanceOf(ProxyAuthError);
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:443: it asks for credentials (HTTP 407)`,
    );
    expect(proxy.requests.map((r) => [r.method, r.target, r.proxyAuthorization])).toEqual([
      ['CONNECT', 'api.example.test:443', 'Basic dXNlcjpzZWNyZXQ='],
    ]);
  });

  it('https: another refusal says its status', async () => {
    const proxy = await testProxy({ connectStatus: 403 });
    const agent = agentFor({ httpsProxy: `127.0.0.1:${proxy.port}` });
    const err = await failure(send(new URL('https://api.example.test:8443/v1'), sendOpts(agent)));
    expect(err?.message).toBe(
      `the proxy 127.0.0.1:${proxy.port} refused a tunnel to api.example.test:8443: it answered HTTP 403`,
    );
    expect((err as ConnectionError).causeCode).toBe('PROXY_CONNECT');
    expect(proxy.requests.map((r) => [r.target, r.proxyAuthorization])).toEqual([['api.example.test:8443', undefined]]);
  });

  it('https: an IPv6 target is bracketed in the CONNECT target', async () => {
    const proxy = await testProxy({ connectStatus: 407 });
    await failure(send(new URL('https://[2001:db8::5]/v1'), sendOpts(agentFor({ httpsProxy: proxy.url }))));
    expect(proxy.requests.map((r) => r.target)).toEqual(['[2001:db8::5]:443']);
  });

  it('https: a proxy that is not there is named as the one that refused', async () => {
    const port = await closedPort();
    const agent = agentFor({ httpProxy: `http://user:secret@127.0.0.1:${port}` });
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(agent)));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err?.message).toBe(`connection refused by the proxy 127.0.0.1:${port}`);
  });

  it('https: a proxy that never answers CONNECT ends in the timeout, and leaves no connection open', async () => {
    const silent = await silentServer();
    const agent = agentFor({ httpsProxy: `127.0.0.1:${silent.port}` }, 300);
    for (let i = 1; i <= 4; i++) {
      const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(agent, 300)));
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err?.message).toBe(`no complete answer from the proxy 127.0.0.1:${silent.port} within the timeout`);
    }
    expect(silent.accepted()).toBe(4);
    // Each CONNECT is given up with its request (undici would otherwise wait 300 s for it): none piles up.
    await until('every CONNECT closed', () => silent.open() === 0, 5_000);
  });

  it('https: close() ends a request still waiting for its tunnel', async () => {
    const silent = await silentServer();
    const agent = new HttpAgent({ proxy: { httpsProxy: `127.0.0.1:${silent.port}` }, timeoutMs: 60_000 });
    const pending = failure(send(new URL('https://api.example.test/v1'), sendOpts(agent, 60_000)));
    await until('the CONNECT', () => silent.accepted() === 1);
    await agent.close();
    expect(await pending).toBeInstanceOf(ConnectionError);
    await until('the CONNECT closed', () => silent.open() === 0, 5_000);
  });

  it('https: a tunnel that opened to an API that never answers: the timeout names the API, not the proxy', async () => {
    const silentApi = await silentServer();
    const proxy = await testProxy({ tunnelTo: silentApi.port });
    const agent = agentFor({ httpsProxy: proxy.url }, 300);
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(agent, 300)));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err?.message).toBe('no complete answer from api.example.test within the timeout');
    expect(proxy.requests.map((r) => r.target)).toEqual(['api.example.test:443']);
    expect(silentApi.accepted()).toBe(1);
  });

  const cert = selfSignedCert('api.example.test');
  it.skipIf(cert === undefined)(
    'https: TLS to the API runs inside the tunnel (its certificate, not the proxy, is what fails)',
    async () => {
      const api = await handlerServer((_req, res) => res.end('should not get here'), cert);
      const proxy = await testProxy({ tunnelTo: Number(new URL(api.url).port) });
      const err = await failure(
        send(new URL('https://api.example.test/v1'), sendOpts(agentFor({ httpsProxy: proxy.url }))),
      );
      expect(err).toBeInstanceOf(TlsError);
      expect(err?.message).toBe('cannot connect securely to api.example.test: its certificate is self-signed');
      expect(proxy.requests.map((r) => r.target)).toEqual(['api.example.test:443']);
      expect(api.requests).toEqual([]);
    },
  );

  it('an invalid https setting refuses https requests before anything is sent, and leaves plain http alone', async () => {
    const proxy = await testProxy({ requestStatus: 407, connectStatus: 407 });
    const agent = agentFor({ httpProxy: proxy.url, httpsProxy: 'http://user:secret@[bad' });
    const err = await failure(send(new URL('https://api.example.test/v1'), sendOpts(agent)));
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect(proxy.requests).toEqual([]);
    expect(await failure(send(new URL('http://api.example.test/v1'), sendOpts(agent)))).toBeInstanceOf(ProxyAuthError);
    expect(proxy.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('loopback is reached directly whatever the settings say', async () => {
    const proxy = await testProxy({ requestStatus: 407, connectStatus: 407 });
    const api = await handlerServer((_req, res) => res.end('direct'));
    const agent = agentFor({ httpProxy: proxy.url, httpsProxy: proxy.url });
    const port = new URL(api.url).port;
    for (const host of ['127.0.0.1', 'localhost']) {
      expect((await send(new URL(`http://${host}:${port}/v1`), sendOpts(agent))).body).toBe('direct');
    }
    expect(proxy.requests).toEqual([]);
  });
});
