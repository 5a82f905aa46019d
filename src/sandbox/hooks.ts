// The /_sandbox/ control endpoints: request log, records, updates, faults, health and reset over HTTP (no key needed).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidParamsError } from '../api/api-errors.js';
import type { SpecRecall } from '../api/schemas.js';
import type { SandboxCore } from './core.js';
import { errorAnswer, methodNotAllowed, notFound, writeAnswer, type ApiAnswer } from './respond.js';

const MAX_BODY = 10 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new InvalidParamsError('request body larger than 10 MB'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidParamsError('the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidParamsError('the body must be a JSON object');
  return value as Record<string, unknown>;
}

const ok = (body: unknown, status = 200): ApiAnswer => ({ status, body });

async function route(core: SandboxCore, req: IncomingMessage, path: string): Promise<ApiAnswer> {
  const m = req.method ?? 'GET';
  const only = (...methods: string[]) => {
    if (!methods.includes(m)) return { ...methodNotAllowed(m, path), headers: { Allow: methods.join(', ') } };
    return undefined;
  };
  switch (path) {
    case '/_sandbox/requests': {
      const refused = only('GET', 'DELETE');
      if (refused) return refused;
      if (m === 'GET') return ok({ requests: core.log });
      core.log = [];
      return ok({ ok: true });
    }
    case '/_sandbox/records': {
      const wrong = only('GET', 'POST');
      if (wrong) return wrong;
      if (m === 'GET') return ok({ records: core.records() });
      const body = await jsonBody(req);
      if (typeof body.count === 'number') return ok({ records: core.addRecords(body.count) }, 201);
      if (Array.isArray(body.records))
        return ok({ records: core.addRecords(body.records as Partial<SpecRecall>[]) }, 201);
      throw new InvalidParamsError('send {"count":n} or {"records":[...]}');
    }
    case '/_sandbox/updates': {
      const wrong = only('POST');
      if (wrong) return wrong;
      const body = await jsonBody(req);
      if (typeof body.count !== 'number') throw new InvalidParamsError('send {"count":n}');
      return ok({ ids: core.updateRecords(body.count).map((r) => r.id) });
    }
    case '/_sandbox/faults': {
      const wrong = only('GET', 'POST');
      if (wrong) return wrong;
      if (m === 'POST') core.setFaults((await jsonBody(req)) as never);
      return ok({ faults: core.faults.config });
    }
    case '/_sandbox/health': {
      const wrong = only('GET', 'POST');
      if (wrong) return wrong;
      if (m === 'POST') {
        const body = await jsonBody(req);
        if (typeof body.healthy !== 'boolean')
          throw new InvalidParamsError('send {"healthy":true} or {"healthy":false}');
        core.healthy = body.healthy;
      }
      return ok({ healthy: core.healthy });
    }
    case '/_sandbox/reset': {
      const refused = only('POST');
      if (refused) return refused;
      core.reset();
      return ok({ ok: true });
    }
    default:
      return notFound(path);
  }
}

export async function handleHook(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  let answer: ApiAnswer;
  try {
    answer = await route(core, req, path);
  } catch (err) {
    if (!(err instanceof InvalidParamsError)) throw err;
    answer = errorAnswer(400, 'validation_error', err.message, 'See the sandbox documentation for the hook bodies.');
  }
  if (!res.destroyed) writeAnswer(res, answer);
}
