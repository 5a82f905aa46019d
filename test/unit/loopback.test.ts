// isLoopbackHost: this machine however its name or address is written (as URL() gives a hostname, as a --db URL's
// ?host= or a Host header may), and nothing else; the plain-http rule of every address it guards follows it.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/api/loopback.js';
import { checkBaseUrl } from '../../src/api/request-target.js';

const LOOPBACK = [
  'localhost',
  'LocalHost',
  '127.0.0.1',
  '127.255.3.9',
  '::1',
  '[::1]',
  '0:0:0:0:0:0:0:1',
  '0000:0000:0000:0000:0000:0000:0000:0001',
  '0::0:1',
  '::ffff:127.0.0.1',
  '[::ffff:7f00:1]',
  '::FFFF:7F01:0203',
  '0:0:0:0:0:ffff:127.9.8.7',
];

const ELSEWHERE = [
  // With its dot the name may be asked of DNS, whose answer need not be this machine.
  'localhost.',
  'localhost..',
  'localhost.example',
  'mylocalhost',
  '0.0.0.0',
  '128.0.0.1',
  '127.0.0.256',
  '127.0.0',
  '::',
  '::2',
  '1::1',
  '::1::',
  '::1%lo',
  '0:0:0:0:0:0:0:0:1',
  '::ffff:128.0.0.1',
  '::ffff:8000:1',
  '::fffe:127.0.0.1',
  '::127.0.0.1',
  '1::ffff:127.0.0.1',
  '[::ffff:7f00:1',
  '',
];

describe('isLoopbackHost', () => {
  it.each(LOOPBACK)('%s is this machine', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(ELSEWHERE)('%j is not', (host) => expect(isLoopbackHost(host)).toBe(false));

  it('the API key over plain http: to any spelling of loopback, never elsewhere', () => {
    for (const base of ['http://[::ffff:127.0.0.1]:4010', 'http://[0:0:0:0:0:0:0:1]:4010', 'http://127.0.0.1:4010'])
      expect(checkBaseUrl(base, 'dr_live_key', false).protocol, base).toBe('http:');
    for (const base of ['http://[::ffff:128.0.0.1]', 'http://localhost.example', 'http://[::2]'])
      expect(() => checkBaseUrl(base, 'dr_live_key', false), base).toThrow(
        /refusing to send the API key over plain http/,
      );
  });
});
