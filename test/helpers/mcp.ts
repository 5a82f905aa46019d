// MCP tests: each tool's outputSchema (as the server lists it) compiled with ajv, and calls that check their answer against it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { expect } from 'vitest';

export type Rec = Record<string, any>;

/** Every answer's text and structuredContent this test file saw: for checks that no secret is in any of them. */
export const answered: string[] = [];

/** Checks answers against the outputSchemas a server listed: what a client that validates would see. */
export class OutputSchemas {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly validators = new Map<string, ReturnType<Ajv['compile']>>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      this.validators.set(tool.name, this.ajv.compile(tool.outputSchema as Rec));
    }
  }

  /** 'valid', or ajv's words for what is wrong. */
  check(name: string, structured: unknown): string {
    const validate = this.validators.get(name);
    if (!validate) return `no tool ${name}`;
    return validate(structured) ? 'valid' : this.ajv.errorsText(validate.errors);
  }
}

/** The call's text, and its structuredContent checked against the tool's outputSchema; a tool error fails the test. */
export async function callOk(client: Client, schemas: OutputSchemas, name: string, args: Rec = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  answered.push(text, JSON.stringify(r.structuredContent));
  expect(r.isError ?? false, `${name}: ${text}`).toBe(false);
  expect(schemas.check(name, r.structuredContent), name).toBe('valid');
  return { text, data: r.structuredContent as Rec };
}

/** A call that must come back as a tool error (not a thrown protocol error, not a crash): its text. */
export async function callFails(client: Client, name: string, args: Rec): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  answered.push(JSON.stringify(r));
  expect(r.isError, name).toBe(true);
  expect(r.structuredContent, name).toBeUndefined();
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
