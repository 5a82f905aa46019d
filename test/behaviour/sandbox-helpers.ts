// Shared helpers of the sandbox end-to-end tests: raw HTTP over one keep-alive agent, and body parsing.
import { Agent, request } from 'undici';
import { ALL_KEY, LIMITED_KEY } from '../helpers/sandbox.js';

export const ALL = ALL_KEY;
export const LIMITED = LIMITED_KEY;

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

const newAgent = () => new Agent({ keepAliveTimeout: 10_000, connections: 4 });
let current = newAgent();

/** The keep-alive agent; a new one once a file's `closeAgent` closed the last (files may share this module). */
export function agent(): Agent {
  if (current.closed || current.destroyed) current = newAgent();
  return current;
}

/** Closes the agent at the end of a file: its keep-alive sockets would hold the worker open. */
export const closeAgent = (): Promise<void> => current.close();

export async function call(
  base: string,
  path: string,
  opts: { key?: string | undefined; method?: string; body?: unknown } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.key !== undefined) headers['x-api-key'] = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(base + path, {
    method: (opts.method ?? 'GET') as 'GET',
    headers,
    body,
    dispatcher: agent(),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** GET with the all-sources demo key by default; `null` sends no key at all. */
export const get = (base: string, path: string, key: string | null = ALL) =>
  call(base, path, { key: key ?? undefined });
