// `recall-feed mcp` over stdio answers each malformed message as JSON-RPC 2.0 (§5) says: -32700 for what is not JSON,
// -32600 for what is no request (id null when its id cannot be read), -32602 for params of the wrong type, each with
// a one-line message; notifications and responses get no answer. A client waiting on one used to wait forever.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const line = (message: unknown) => JSON.stringify(message);
const INIT = line({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const toolsCall = (id: number, params: unknown) => line({ jsonrpc: '2.0', id, method: 'tools/call', params });

const error = (id: number | string | null, code: number, message: string) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});
const ID_UNREADABLE = 'Invalid Request: id must be a string or an integer';

/** Each malformed message of the fuzz report (and a few more), with the answer it is owed; null: none. */
const CASES: Array<[string, ReturnType<typeof error> | null]> = [
  ['{', error(null, -32700, 'Parse error: not JSON')],
  ['null', error(null, -32600, 'Invalid Request: not a JSON object')],
  ['[]', error(null, -32600, 'Invalid Request: an empty batch')],
  ['1e400', error(null, -32600, 'Invalid Request: not a JSON object')],
  ['{"jsonrpc":"1.0","id":4,"method":"tools/list"}', error(4, -32600, 'Invalid Request: jsonrpc must be "2.0"')],
  ['{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', error(null, -32600, ID_UNREADABLE)],
  ['{"jsonrpc":"2.0","id":1e308,"method":"tools/list"}', error(null, -32600, ID_UNREADABLE)],
  ['{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', error(null, -32600, ID_UNREADABLE)],
  ['{"jsonrpc":"2.0","id":null,"method":"tools/list"}', error(null, -32600, ID_UNREADABLE)],
  [toolsCall(7, null), error(7, -32602, 'Invalid params: params must be an object')],
  [
    `[${line({ jsonrpc: '2.0', id: 8, method: 'tools/list' })},${line({ jsonrpc: '2.0', id: 9, method: 'ping' })}]`,
    error(null, -32600, 'Invalid Request: a batch: send one message a line'),
  ],
  [
    `\uFEFF${line({ jsonrpc: '2.0', id: 10, method: 'ping' })}`,
    error(null, -32700, 'Parse error: not JSON: it starts with a byte order mark'),
  ],
  [
    '{"jsonrpc":"2.0","id":"x","method":"ping","extra":1}',
    error('x', -32600, 'Invalid Request: Unrecognized key: "extra"'),
  ],
  // Wrong-typed params: -32603 with a multi-line dump of the schema error before.
  [
    toolsCall(11, { name: 5 }),
    error(11, -32602, 'Invalid params: params.name: Invalid input: expected string, received number'),
  ],
  [
    toolsCall(12, { name: 'list_cases', arguments: 'x' }),
    error(12, -32602, 'Invalid params: params.arguments: Invalid input: expected record, received string'),
  ],
  [
    line({ jsonrpc: '2.0', id: 13, method: 'prompts/get', params: { name: 'check-my-products', arguments: { x: 5 } } }),
    error(13, -32602, 'Invalid params: params.arguments.x: Invalid input: expected string, received number'),
  ],
  [
    line({ jsonrpc: '2.0', id: 14, method: 'tools/list', params: { cursor: 5 } }),
    error(14, -32602, 'Invalid params: params.cursor: Invalid input: expected string, received number'),
  ],
  // No answer: notifications (no id), a response, a blank line.
  ['{"jsonrpc":"2.0","method":"notifications/whatever","params":null}', null],
  ['{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}', null],
  ['{"jsonrpc":"2.0","id":99,"result":5}', null],
  ['   ', null],
];

/** The lines the SDK itself refuses (not JSON-RPC): each said once on stderr. The rest of CASES reach the server. */
const REFUSED_LINES = 16;

describe('mcp over stdio: malformed messages', () => {
  it('each gets its JSON-RPC error answer, one line, and a well-formed request after them still works', async () => {
    const db = path.join(tempDir('rf-mcp-malformed-'), 'none.db');
    const list = line({ jsonrpc: '2.0', id: 20, method: 'tools/list' });
    const stdin = `${[INIT, INITIALIZED, ...CASES.map(([text]) => text), list].join('\n')}\n`;
    const r = await runMain(['mcp', '--db', db], { stdin });
    expect(r.code).toBe(0);
    // stdout is JSON-RPC only: one message a line.
    const out = r.stdout.split('\n').filter((l) => l !== '');
    const messages = out.map((l) => JSON.parse(l) as { id: unknown; error?: unknown; result?: any });
    const errors = messages.filter((m) => m.error !== undefined);
    const owed = CASES.flatMap(([, answer]) => (answer ? [answer] : []));
    const order = (list: unknown[]) => list.map((m) => JSON.stringify(m)).sort();
    expect(order(errors)).toEqual(order(owed));
    const results = messages.filter((m) => m.result !== undefined);
    expect(results.map((m) => m.id)).toEqual([1, 20]);
    expect(results[1]?.result.tools.map((t: { name: string }) => t.name)).toContain('list_cases');
    // Each refused line said once, in one short line (not the SDK's schema dump).
    const warnings = r.stderr.split('\n').filter((l) => l !== '');
    expect(warnings).toHaveLength(REFUSED_LINES);
    for (const w of warnings) {
      expect(w).toMatch(/^warning: mcp: a message refused \(.+\): (answered -32[0-9]{3}|not answered)$/);
      expect(w.length).toBeLessThan(300);
    }
  });
});
