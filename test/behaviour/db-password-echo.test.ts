// A PostgreSQL server that quotes the password it was sent in its refusal: the password is masked in every form
// (--db, RECALL_FEED_DB, the profile; as typed, percent-encoded, `?password=`), on stderr, in JSON logs, in the
// monitor's fail ping, in MCP tool results and in doctor's archive check.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { handlerServer } from '../helpers/handler-server.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort } from '../helpers/test-proxy.js';

/** A hostile server: asks for the password in clear, then refuses the login quoting it (pg's ErrorResponse). */
async function echoingPostgres(): Promise<{ port: number; sent: string[] }> {
  const sent: string[] = [];
  const server = net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (!started) {
        if (buf.length < 8 || buf.length < buf.readInt32BE(0)) return;
        if (buf.readInt32BE(4) === 80877103) {
          // An SSLRequest: no TLS here.
          buf = buf.subarray(8);
          socket.write('N');
          return;
        }
        buf = buf.subarray(buf.readInt32BE(0));
        started = true;
        // AuthenticationCleartextPassword.
        const ask = Buffer.alloc(9);
        ask.write('R');
        ask.writeInt32BE(8, 1);
        ask.writeInt32BE(3, 5);
        socket.write(ask);
        return;
      }
      if (buf.length < 5 || buf.length < buf.readInt32BE(1) + 1) return;
      const password = buf
        .subarray(5, buf.readInt32BE(1) + 1)
        .toString('utf8')
        .replace(/\0$/, '');
      sent.push(password);
      const fields = Buffer.from(
        `SFATAL\0C53300\0Mpassword authentication failed for user "dbuser" (got ${password})\0\0`,
        'utf8',
      );
      const head = Buffer.alloc(5);
      head.write('E');
      head.writeInt32BE(fields.length + 4, 1);
      socket.end(Buffer.concat([head, fields]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deferCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, sent };
}

/** Each form of a password in a URL, and what pg sends (and the server quotes): decoded. */
function urls(port: number) {
  const base = `127.0.0.1:${port}/recalls`;
  return [
    { url: `postgres://dbuser:DBPASSsecret55@${base}`, password: 'DBPASSsecret55' },
    { url: `postgres://dbuser:DBPASS%40secret55@${base}`, password: 'DBPASS@secret55' },
    { url: `postgres://dbuser@${base}?password=QUERYPASSsecret`, password: 'QUERYPASSsecret' },
    { url: `postgres://dbuser@${base}?password=QUERY%26PASSsecret`, password: 'QUERY&PASSsecret' },
  ];
}

const REFUSED =
  'error: PostgreSQL refused to start a session in database recalls on 127.0.0.1: password authentication failed for user "dbuser" (got ****)';

function expectNoLeak(text: string, password: string): void {
  expect(text).not.toContain(password);
  expect(text).not.toContain(encodeURIComponent(password));
}

describe('a database password the server quotes back', () => {
  it('from --db, --db=, RECALL_FEED_DB and the profile, in every form: masked on stderr', async () => {
    const pg = await echoingPostgres();
    for (const { url, password } of urls(pg.port)) {
      const config = tempDir('rf-dbpw-config-');
      const set = await runMain(['config', 'set', 'db'], {
        env: { RECALL_FEED_CONFIG_DIR: config },
        stdin: `${url}\n`,
      });
      expect(set.code, set.stderr).toBe(0);
      const runs = [
        await runMain(['query', '--db', url, '--limit', '1']),
        await runMain(['query', `--db=${url}`, '--limit', '1']),
        await runMain(['query', '--limit', '1'], { env: { RECALL_FEED_DB: url } }),
        await runMain(['query', '--limit', '1'], { env: { RECALL_FEED_CONFIG_DIR: config } }),
      ];
      for (const r of runs) {
        expect(r.stderr.split('\n')[0], url).toBe(REFUSED);
        expectNoLeak(r.stderr, password);
        expect(r.stdout).toBe('');
        expect(r.code).toBe(runs[0]!.code);
      }
    }
    // The server saw each password as pg sends it: the masking is of what it really quoted.
    expect(new Set(pg.sent)).toEqual(new Set(urls(pg.port).map((u) => u.password)));
  });

  it('--log-format json: the msg masked', async () => {
    const pg = await echoingPostgres();
    const { url, password } = urls(pg.port)[0]!;
    const r = await runMain(['--log-format', 'json', 'query', '--db', url, '--limit', '1']);
    const lines = r.stderr.trim().split('\n');
    const error = lines.map((l) => JSON.parse(l)).find((l) => l.level === 'error');
    expect(error.msg).toBe(REFUSED.slice('error: '.length));
    expectNoLeak(r.stderr, password);
  });

  it("sync --monitor: the fail ping's body masked", async () => {
    const pg = await echoingPostgres();
    const bodies: string[] = [];
    const hc = await handlerServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push(`${req.url} ${body}`);
        res.end('OK');
      });
    });
    const sandbox = await sandboxFor({ recordCount: 5 });
    for (const { url, password } of urls(pg.port)) {
      bodies.length = 0;
      const r = await runMainAgainst(sandbox, ['sync', '--db', url, '--monitor', `${hc.url}/ping/check`]);
      expect(r.stderr.split('\n')[0]).toBe(REFUSED);
      const fail = bodies.find((b) => b.startsWith('/ping/check/fail '));
      expect(fail, bodies.join('\n')).toContain('(got ****)');
      expectNoLeak(bodies.join('\n'), password);
    }
  });

  it('mcp --db: the tool results masked', async () => {
    const pg = await echoingPostgres();
    const { url, password } = urls(pg.port)[0]!;
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const calls = [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_recalls', arguments: { query: 'toy' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'digest', arguments: {} } },
    ];
    const stdin = [init, ...calls].map((m) => JSON.stringify(m)).join('\n');
    const r = await runMain(['--sandbox', 'mcp', '--db', url], { stdin: `${stdin}\n` });
    const answers = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    for (const id of [2, 3]) {
      const answer = answers.find((a) => a.id === id);
      expect(answer?.result?.isError, JSON.stringify(answer)).toBe(true);
      expect(JSON.stringify(answer.result.content)).toContain('(got ****)');
    }
    expectNoLeak(r.stdout + r.stderr, password);
  });

  it("doctor's archive check: masked, whether the profile, --db or RECALL_FEED_DB names the archive", async () => {
    const pg = await echoingPostgres();
    const sandbox = await sandboxFor({ recordCount: 5 });
    const forms = urls(pg.port);
    // As typed in the user info, and a `?password=` percent-encoded (the other forms: the first test).
    for (const { url, password } of [forms[0]!, forms[3]!]) {
      const config = tempDir('rf-dbpw-doctor-');
      const env = { RECALL_FEED_CONFIG_DIR: config };
      expect((await runMain(['config', 'set', 'db'], { env, stdin: `${url}\n` })).code).toBe(0);
      const runs = [
        await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env }),
        await runMainAgainst(sandbox, ['doctor', '-f', 'json', '--db', url]),
        await runMainAgainst(sandbox, ['doctor', '-f', 'json'], { env: { RECALL_FEED_DB: url } }),
      ];
      for (const r of runs) {
        const archive = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'archive');
        expect(archive.status).toBe('fail');
        expect(archive.detail).toBe(
          'postgres://dbuser@127.0.0.1:' +
            `${pg.port}/recalls: PostgreSQL refused to start a session in database recalls on 127.0.0.1: ` +
            'password authentication failed for user "dbuser" (got ****)',
        );
        expectNoLeak(r.stdout + r.stderr, password);
        expect(r.code).not.toBe(0);
      }
    }
  });

  it('a password that is the user, database or host name, or a short common word, garbles no message', async () => {
    const sandbox = await sandboxFor({ recordCount: 5 });
    const port = await closedPort();
    for (const [user, password, database] of [
      ['postgres', 'postgres', 'postgres'],
      ['recall', 'recall', 'recall'],
      ['ana', 'localhost', 'recalls'],
      // Not a name of the URL: masked where it stands alone, never inside "database".
      ['ana', 'data', 'recalls'],
    ]) {
      const url = `postgres://${user}:${password}@localhost:${port}/${database}`;
      const r = await runMainAgainst(sandbox, ['doctor', '-f', 'json', '--db', url]);
      const archive = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'archive');
      expect(archive.detail, url).toBe(
        `postgres://${user}@localhost:${port}/${database}: no PostgreSQL server answers at localhost ` +
          `(database ${database} on localhost): connect ECONNREFUSED 127.0.0.1:${port}`,
      );
      expect(r.stdout + r.stderr, url).not.toContain('****');
      expect(r.code).toBe(16);
    }
  });
});
