// The SDK's stdio transport, with what JSON-RPC 2.0 (§5) owes a client for a message the SDK refuses answered here:
// the SDK drops a line it cannot parse (telling only onerror), so a client waited forever on its request.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deserializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type ErrorAnswer, lineRefusal, paramsRefusal, type Refusal } from './jsonrpc-refusals.js';

/** The line a refused message is warned about: why, and what it was answered (stdout carries only JSON-RPC). */
class RefusedMessage extends Error {
  override name = 'RefusedMessage';
  constructor(refusal: Refusal) {
    const { answer } = refusal;
    super(`a message refused (${refusal.reason})${answer ? `: answered ${answer.error.code}` : ': not answered'}`);
  }
}

/** Whether `error` is the SDK's own report of a line it could not read (its JSON.parse or its schema threw). */
const lineError = (error: Error) => error instanceof SyntaxError || error.name === 'ZodError';

/**
 * StdioServerTransport, each line also read here, framed as the SDK frames it (split at "\n", a "\r" before it
 * dropped, the same size limit): a line the SDK refuses is answered and warned about once, in one line, in place of
 * the SDK's schema dump; a request whose params its method rejects is answered -32602 and never reaches the SDK.
 */
export class AnsweringStdioTransport extends StdioServerTransport {
  /** The start of a line not yet ended. */
  private pending: Buffer | undefined;
  /** Lines refused here whose error from the SDK is still to come (it reads each chunk right after this does). */
  private refused = 0;

  constructor(
    private readonly input: Readable,
    output: Writable,
  ) {
    super(input, output);
  }

  override start(): Promise<void> {
    // First: each chunk is read here before the SDK reads it (both listeners are in place before any data flows).
    this.input.on('data', this.look);
    const started = super.start();
    this.guard();
    return started;
  }

  override close(): Promise<void> {
    // Off first: the SDK pauses stdin only when no other listener is left.
    this.input.off('data', this.look);
    this.pending = undefined;
    return super.close();
  }

  /** What the SDK and the server set (connect sets them before it starts the transport), checked here first. */
  private guard(): void {
    const deliver = this.onmessage;
    const report = this.onerror;
    this.onmessage = (message) => {
      const refused = isJSONRPCRequest(message) ? paramsRefusal(message) : undefined;
      if (refused) void this.answer(refused);
      else deliver?.(message);
    };
    this.onerror = (error) => {
      // The SDK's dump of a line already warned about here in one line.
      if (this.refused > 0 && lineError(error)) this.refused--;
      else report?.(error);
    };
  }

  /** A chunk of stdin: its whole lines checked, as the SDK's ReadBuffer reads them. */
  private readonly look = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // The SDK refuses the chunk whole and closes the connection: nothing here to answer.
    if ((this.pending?.length ?? 0) + bytes.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.pending = undefined;
      return;
    }
    let rest = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    for (let end = rest.indexOf(0x0a); end >= 0; end = rest.indexOf(0x0a)) {
      this.check(rest.toString('utf8', 0, end).replace(/\r$/, ''));
      rest = rest.subarray(end + 1);
    }
    this.pending = rest.length > 0 ? rest : undefined;
  };

  /** A line the SDK will refuse: warned about (onerror), and answered when it was meant as a request. */
  private check(line: string): void {
    // A blank line carries no message: skipped quietly (the SDK's parse of it throws all the same).
    if (line.trim() === '') {
      this.refused++;
      return;
    }
    try {
      deserializeMessage(line);
      return;
    } catch {
      // Refused: the SDK's deserializeMessage is what its ReadBuffer calls on the same line.
    }
    const refusal = lineRefusal(line);
    this.onerror?.(new RefusedMessage(refusal));
    this.refused++;
    if (refusal.answer) void this.answer(refusal.answer);
  }

  /** An error answer, written as the SDK writes its messages (`send`: any wrapper set on this transport included). */
  private answer(answer: ErrorAnswer): Promise<void> {
    // An id of null is JSON-RPC's for a request whose id could not be read; the SDK's type has no room for it.
    return this.send(answer as unknown as JSONRPCMessage);
  }
}
