// The stdio transport reads lines as the SDK frames them (a message split across chunks, CRLF) and answers, once,
// only what the SDK refuses; the SDK's own report of such a line is replaced by one line of warning.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnsweringStdioTransport } from '../../src/mcp/stdio-transport.js';

function transport() {
  const input = new PassThrough();
  let written = '';
  const output = new Writable({
    write(chunk: Buffer, _enc, callback) {
      written += chunk.toString('utf8');
      callback();
    },
  });
  const t = new AnsweringStdioTransport(input, output);
  const received: unknown[] = [];
  const errors: string[] = [];
  t.onmessage = (m) => received.push(m);
  t.onerror = (e) => errors.push(`${e.name}: ${e.message}`);
  return {
    t,
    input,
    received,
    errors,
    out: () =>
      written
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AnsweringStdioTransport', () => {
  it('a message split across chunks and a CRLF line reach the server once; a bad line is answered once', async () => {
    const { t, input, received, errors, out } = transport();
    await t.start();
    input.write('{"jsonrpc":"2.0","id":1,');
    await tick();
    input.write('"method":"ping"}\r\n{"jsonrpc":"2.0","id":2,"method":"ping"');
    await tick();
    input.write('}\n{\n');
    await tick();
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(out()).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: not JSON' } }]);
    // One warning, this transport's: the SDK's SyntaxError for the same line is not repeated.
    expect(errors).toEqual(['RefusedMessage: a message refused (not JSON): answered -32700']);
    await t.close();
  });

  it('wrong-typed params never reach the server: -32602 with the first issue, one line', async () => {
    const { t, input, received, errors, out } = transport();
    await t.start();
    input.write('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":5}}\n');
    await tick();
    expect(received).toEqual([]);
    expect(errors).toEqual([]);
    expect(out()).toEqual([
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message:
            'Invalid params: params.protocolVersion: Invalid input: expected string, received number (and 2 more)',
        },
      },
    ]);
    await t.close();
  });

  it('closing stops reading: stdin is paused and left to others', async () => {
    const { t, input } = transport();
    await t.start();
    await t.close();
    expect(input.listenerCount('data')).toBe(0);
    expect(input.isPaused()).toBe(true);
  });
});
