// The checks `mcp --http` makes before the MCP transport sees a request: path, Host and Origin (DNS rebinding), bearer token.
import { describe, expect, it } from 'vitest';
import { refusal } from '../../src/mcp/http-guard.js';
import { parseListen } from '../../src/cli/commands/mcp.js';

const TOKEN = 'a'.repeat(40);
const req = (headers: Record<string, string>, url = '/mcp') => ({ url, headers });

describe('bound to loopback, without a token', () => {
  const opts = { host: '127.0.0.1', token: undefined };

  it('lets a loopback Host through, with or without a loopback Origin', () => {
    for (const host of ['127.0.0.1:8765', 'localhost:8765', '[::1]:8765', 'localhost'])
      expect(refusal(req({ host }), opts), host).toBeUndefined();
    expect(refusal(req({ host: 'localhost:1', origin: 'http://localhost:3000' }), opts)).toBeUndefined();
    expect(refusal(req({ host: '127.0.0.1:1', origin: 'https://127.0.0.1' }), opts)).toBeUndefined();
  });

  it('refuses a name that only resolves to loopback (DNS rebinding), and a foreign Origin', () => {
    expect(refusal(req({ host: 'evil.example:8765' }), opts)).toEqual({
      status: 403,
      message: 'Host is not this machine',
    });
    expect(refusal(req({ host: 'localhost.evil.example' }), opts)?.status).toBe(403);
    for (const origin of ['https://evil.example', 'null', 'file://x', 'not a url'])
      expect(refusal(req({ host: 'localhost:8765', origin }), opts), origin).toEqual({
        status: 403,
        message: 'Origin not allowed',
      });
  });

  it('answers only at /mcp, and needs a Host', () => {
    expect(refusal(req({ host: 'localhost' }, '/'), opts)?.status).toBe(404);
    expect(refusal(req({ host: 'localhost' }, '/mcp/x'), opts)?.status).toBe(404);
    expect(refusal(req({ host: 'localhost' }, '/mcp?x=1'), opts)).toBeUndefined();
    expect(refusal(req({}), opts)?.status).toBe(400);
  });
});

describe('bound beyond loopback, with the token', () => {
  const opts = { host: '0.0.0.0', token: TOKEN };
  const host = 'recalls.internal:8765';

  it('needs the exact bearer token', () => {
    expect(refusal(req({ host, authorization: `Bearer ${TOKEN}` }), opts)).toBeUndefined();
    expect(refusal(req({ host, authorization: `bearer ${TOKEN}` }), opts)).toBeUndefined();
    for (const authorization of ['', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN])
      expect(refusal(req({ host, authorization }), opts), authorization).toEqual({
        status: 401,
        message: 'a valid bearer token is required',
      });
    expect(refusal(req({ host }), opts)?.status).toBe(401);
  });

  it('takes any Host (the token decides), but an Origin must be that host', () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(refusal(req({ host: '10.0.0.5:8765', ...auth }), opts)).toBeUndefined();
    expect(refusal(req({ host, origin: 'https://recalls.internal', ...auth }), opts)).toBeUndefined();
    expect(refusal(req({ host, origin: 'https://evil.example', ...auth }), opts)?.status).toBe(403);
  });
});

describe('--http', () => {
  it('is a port (loopback) or host:port, IPv6 in brackets', () => {
    expect(parseListen('8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseListen('0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListen('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseListen('localhost:8765')).toEqual({ host: 'localhost', port: 8765 });
    expect(parseListen('[::1]:8765')).toEqual({ host: '::1', port: 8765 });
    for (const bad of ['', 'x', '65536', 'host:', ':80', '::1:80', 'a b:80'])
      expect(() => parseListen(bad), bad).toThrow('--http must be [host:]port');
  });
});
