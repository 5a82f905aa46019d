// What JSON-RPC 2.0 (§5) answers to a message the MCP SDK refuses: the SDK's stdio transport drops a line it cannot
// parse (only telling its onerror), and answers a request whose params its schema rejects with -32603 and the schema
// error's multi-line dump. A client waiting on such a request waited forever, or read a page of JSON as a message.
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCNotificationSchema,
  type JSONRPCRequest,
  JSONRPCRequestSchema,
  JSONRPCResponseSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
  RequestIdSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { plainLine } from '../output/control-escapes.js';
import { shorten } from '../output/shorten.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

type Code = typeof PARSE_ERROR | typeof INVALID_REQUEST | typeof INVALID_PARAMS;

const TITLES: Record<Code, string> = {
  [PARSE_ERROR]: 'Parse error',
  [INVALID_REQUEST]: 'Invalid Request',
  [INVALID_PARAMS]: 'Invalid params',
};

/** An error response; `id` null when the request's id could not be read (JSON-RPC 2.0 §5). */
export interface ErrorAnswer {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: Code; message: string };
}

/** Why a message was refused (one line, for the operator's warning), and the answer owed, if any. */
export interface Refusal {
  reason: string;
  answer?: ErrorAnswer;
}

/** The longest reason a message or warning quotes: a hostile key or path stays a line, not a page. */
const REASON_LIMIT = 200;

function answer(id: RequestId | null, code: Code, reason: string): ErrorAnswer {
  return { jsonrpc: '2.0', id, error: { code, message: `${TITLES[code]}: ${reason}` } };
}

/** One line of text a client chose (a key, a zod path), without controls, cut to REASON_LIMIT. */
function oneLine(text: string): string {
  return shorten(plainLine(text), REASON_LIMIT);
}

type Issue = { path: PropertyKey[]; message: string };
type Schema = { safeParse(v: unknown): { success: boolean; error?: { issues: Issue[] } } };

/** The first of what `schema` finds wrong with `value`, as `params.name: Invalid input: expected string, received number`. */
function issueText(schema: Schema, value: unknown): string {
  const issues = schema.safeParse(value).error?.issues ?? [];
  const [first] = issues;
  if (first === undefined) return 'not as the method expects';
  const path = first.path.map(String).join('.');
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return oneLine(`${path === '' ? '' : `${path}: `}${first.message}${more}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The request's id when it is one a client can match (a string or a safe integer, as MCP's RequestId), else null. */
function readableId(message: Record<string, unknown>): RequestId | null {
  const id = RequestIdSchema.safeParse(message.id);
  return id.success ? id.data : null;
}

/**
 * What is wrong with an object meant as a request, in the order a reader would fix it: its shape is -32600, its
 * params -32602 (the method's business). The SDK's schema names what the order misses (an unknown member).
 */
function requestRefusal(message: Record<string, unknown>): Refusal {
  const id = readableId(message);
  const refuse = (code: Code, reason: string): Refusal => ({ reason, answer: answer(id, code, reason) });
  if (message.jsonrpc !== '2.0') return refuse(INVALID_REQUEST, 'jsonrpc must be "2.0"');
  if (typeof message.method !== 'string') return refuse(INVALID_REQUEST, 'method must be a string');
  if (id === null) return refuse(INVALID_REQUEST, 'id must be a string or an integer');
  if ('params' in message && !isObject(message.params)) return refuse(INVALID_PARAMS, 'params must be an object');
  const reason = issueText(JSONRPCRequestSchema, message);
  return refuse(reason.startsWith('params.') ? INVALID_PARAMS : INVALID_REQUEST, reason);
}

/**
 * The refusal of a line the SDK could not take as a JSON-RPC message (its parse or its schema threw): an answer for
 * what was meant as a request. A notification (no id, a method) and a response (result or error) are never answered.
 */
export function lineRefusal(line: string): Refusal {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    const reason = line.startsWith('\uFEFF') ? 'not JSON: it starts with a byte order mark' : 'not JSON';
    return { reason, answer: answer(null, PARSE_ERROR, reason) };
  }
  if (Array.isArray(message)) {
    // MCP (2025-06-18) removed JSON-RPC batches, and the SDK takes none: the batch is refused whole.
    const reason = message.length === 0 ? 'an empty batch' : 'a batch: send one message a line';
    return { reason, answer: answer(null, INVALID_REQUEST, reason) };
  }
  if (!isObject(message))
    return { reason: 'not a JSON object', answer: answer(null, INVALID_REQUEST, 'not a JSON object') };
  if (!('id' in message) && typeof message.method === 'string')
    return { reason: `a notification: ${issueText(JSONRPCNotificationSchema, message)}` };
  if (!('method' in message) && ('result' in message || 'error' in message))
    return { reason: `a response: ${issueText(JSONRPCResponseSchema, message)}` };
  return requestRefusal(message);
}

/** The requests this server answers (McpServer with tools, resources and a prompt), each with the SDK's schema. */
const SERVED = new Map<string, Schema>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

/**
 * -32602 for a request whose params its method's schema rejects: the SDK checks them inside the handler, where a
 * schema error becomes -32603 Internal error with the error's multi-line dump as its message.
 */
export function paramsRefusal(request: JSONRPCRequest): ErrorAnswer | undefined {
  const schema = SERVED.get(request.method);
  if (schema === undefined || schema.safeParse(request).success) return undefined;
  return answer(request.id, INVALID_PARAMS, issueText(schema, request));
}
