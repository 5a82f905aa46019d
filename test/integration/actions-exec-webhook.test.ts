// --exec runs real processes without a shell; --webhook posts to a loopback receiver.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitWords } from '../../src/actions/command-words.js';
import { execAction } from '../../src/actions/exec-action.js';
import { webhookAction } from '../../src/actions/webhook-action.js';
import { checkWebhookUrl, maskWebhookUrl } from '../../src/actions/webhook-url.js';
import { tempDir } from '../helpers/temp-dir.js';
import { HttpAgent } from '../../src/api/http-agent.js';

const dir = tempDir('rf-actions-');

const NODE = process.execPath;
/** A script that writes its arguments and its stdin to a file, as JSON. */
const RECORDER = `const fs=require('fs');let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{fs.writeFileSync(process.argv[1],JSON.stringify({args:process.argv.slice(2),stdin:s}));console.log('seen '+process.argv[2]);console.error('\\u001b[31mred\\u0007');});`;

describe('execAction', () => {
  it('passes hostile values as single arguments, never to a shell, and the record on stdin', async () => {
    const out = path.join(dir, 'args.json');
    const record = { id: 9, alert_title: `$(touch ${dir}/pwned) \`touch ${dir}/pwned2\`; touch ${dir}/p3 && echo` };
    const lines: string[] = [];
    const action = execAction({
      words: splitWords(`${NODE} -e "${RECORDER.replace(/"/g, '\\"')}" -- ${out} {alert_title} {id}`),
      timeoutMs: 10_000,
      onOutput: (line) => lines.push(line),
    });
    expect(await action.attempt(record)).toEqual({ ok: true });
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    expect(seen.args).toEqual([record.alert_title, '9']);
    expect(JSON.parse(seen.stdin)).toEqual(record);
    expect(seen.stdin.endsWith('}\n')).toBe(true);
    expect(['pwned', 'pwned2', 'p3'].some((f) => existsSync(path.join(dir, f)))).toBe(false);
    expect(lines.sort()).toEqual([`seen ${record.alert_title}`, '[31mred'].sort());
  });

  it('reports a non-zero exit, a missing command and a timeout', async () => {
    const quiet = { onOutput: () => {}, timeoutMs: 10_000 };
    expect(await execAction({ ...quiet, words: [NODE, '-e', 'process.exit(3)'] }).attempt({})).toEqual({
      ok: false,
      error: 'exit code 3',
    });
    expect(await execAction({ ...quiet, words: ['rf-no-such-command-xyz'] }).attempt({})).toEqual({
      ok: false,
      error: 'command not found: rf-no-such-command-xyz',
    });
    const slow = execAction({
      ...quiet,
      timeoutMs: 200,
      killGraceMs: 200,
      words: [NODE, '-e', 'setInterval(()=>{},1000)'],
    });
    expect(await slow.attempt({})).toEqual({ ok: false, timedOut: true, error: 'timed out after 0 s' });
  });
});

describe('webhook URLs', () => {
  it('https anywhere, plain http only to loopback', () => {
    expect(checkWebhookUrl('https://hooks.example.com/T1/B2/secret').host).toBe('hooks.example.com');
    expect(checkWebhookUrl('http://127.0.0.1:9/x').port).toBe('9');
    expect(() => checkWebhookUrl('http://hooks.example.com/secret')).toThrow(/plain http webhook on hooks.example.com/);
    expect(() => checkWebhookUrl('ftp://x/y')).toThrow(/must be an https URL/);
    expect(() => checkWebhookUrl('not a url')).toThrow(/not a URL/);
    expect(() => checkWebhookUrl('https://bot:pw@hooks.example.com/x')).toThrow(/must not carry user:password@/);
  });

  it('masks the path, which carries the token', () => {
    expect(maskWebhookUrl('https://hooks.example.com/T1/B2/secret')).toBe('https://hooks.example.com/…');
  });
});

describe('webhookAction', () => {
  async function receiver(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req
        .on('data', (d) => (body += d))
        .on('end', () => {
          bodies.push(body);
          answer(req, res, body);
        });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/secret-token`);
    return { url, bodies, close: () => new Promise((r) => server.close(r)) };
  }

  it('posts the record as sent, or a Slack message; reports statuses without the URL path', async () => {
    let status = 200;
    const r = await receiver((_req, res) => {
      res.statusCode = status;
      if (status === 429) res.setHeader('retry-after', '7');
      res.end('ok');
    });
    const agent = new HttpAgent({ timeoutMs: 5000 });
    try {
      const record = {
        id: 3,
        alert_title: 'Kettle <b>&',
        risk_severity: 'serious',
        product_brand: 'Voltra',
        data_source: 'uk_opss',
        source_url: 'https://x.example/r/3',
      };
      const json = webhookAction({ url: r.url, format: 'json', timeoutMs: 5000, agent });
      expect(await json.attempt(record)).toEqual({ ok: true });
      expect(JSON.parse(r.bodies[0] as string)).toEqual(record);
      const slack = webhookAction({ url: r.url, format: 'slack', timeoutMs: 5000, agent });
      await slack.attempt(record);
      expect(JSON.parse(r.bodies[1] as string)).toEqual({
        text: '*Kettle &lt;b&gt;&amp;*\nseverity: serious · brand: Voltra · source: uk_opss\n<https://x.example/r/3>',
      });
      status = 500;
      const failed = await json.attempt(record);
      expect(failed).toEqual({ ok: false, error: `http://${r.url.host}/… answered HTTP 500` });
      status = 429;
      expect(await json.attempt(record)).toMatchObject({ ok: false, retryAfterMs: 7000 });
      expect((await json.attempt(record)).refused).toBeUndefined();
      // A 4xx other than 408 and 429 refuses the post: not worth sending again at once.
      for (status of [400, 403, 404, 422]) {
        expect(await json.attempt(record)).toEqual({
          ok: false,
          refused: true,
          error: `http://${r.url.host}/… answered HTTP ${status}`,
        });
      }
      status = 408;
      expect(await json.attempt(record)).toEqual({ ok: false, error: `http://${r.url.host}/… answered HTTP 408` });
    } finally {
      await agent.close();
      await r.close();
    }
  });

  it('a receiver that stalls is a timeout, not a hang', async () => {
    const r = await receiver(() => {});
    const agent = new HttpAgent({ timeoutMs: 300 });
    try {
      const result = await webhookAction({ url: r.url, format: 'json', timeoutMs: 300, agent }).attempt({
        id: 1,
      });
      expect(result).toEqual({
        ok: false,
        timedOut: true,
        error: `http://${r.url.host}/…: no answer within the timeout`,
      });
    } finally {
      await agent.close();
      await r.close();
    }
  });
});
