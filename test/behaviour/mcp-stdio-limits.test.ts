// `recall-feed mcp` over stdio when the client sends what the SDK cannot take: a message over 10 MiB closes the
// connection, and the run says so and fails, rather than ending as if the client had hung up.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('mcp over stdio', () => {
  it('a message over 10 MiB: a warning naming the limit, exit 1, nothing on stdout', async () => {
    const db = path.join(tempDir('rf-mcp-big-'), 'none.db');
    const r = await runMain(['mcp', '--db', db], {
      stdin: `{"jsonrpc":"2.0","id":1,"method":"x","params":"${'a'.repeat(11 * 1024 * 1024)}`,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^warning: mcp: ReadBuffer exceeded maximum size of 10485760 bytes\n/);
    expect(r.stderr).toContain('the MCP connection on stdin failed');
  });

  it('a line that is no JSON-RPC is warned about and skipped: the client hanging up after it is exit 0', async () => {
    const db = path.join(tempDir('rf-mcp-big-'), 'none.db');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const stdin = `${JSON.stringify(init)}\nnot json\n${JSON.stringify(list)}\n`;
    const r = await runMain(['mcp', '--db', db], { stdin });
    // stdin ends at once, in process: the answers to what was received are written before the hang-up.
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
      // The line that is no JSON is answered first, as JSON-RPC asks: a parse error, its id unknown (null).
    ).toEqual([null, 1, 2]);
    expect(r.stderr).toMatch(/^warning: mcp: /);
    expect(r.stderr).not.toContain('error');
  });

  it('a client that hangs up ends the server with exit 0', async () => {
    const db = path.join(tempDir('rf-mcp-big-'), 'none.db');
    const r = await runMain(['mcp', '--db', db], { stdin: '' });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });
});
