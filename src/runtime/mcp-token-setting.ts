// The `mcp-token` row of the settings table: the bearer token `recall-feed mcp --http` asks for off loopback.
import { SettingValueError } from './settings-parsers.js';

/** Long enough that guessing it over the network is hopeless: 32 characters of `openssl rand -hex 16` or more. */
const MIN_TOKEN_LENGTH = 32;

/** A secret: never echoed in the error, which names only the source. */
export function parseMcpToken(raw: string, source: string): string {
  const token = raw.trim();
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))
    throw new SettingValueError(
      `${source} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`,
      'make one with: openssl rand -hex 32 | recall-feed config set mcp-token',
    );
  return token;
}

/** No flag on purpose: a token on the command line shows in `ps` and in shell history. */
export const MCP_TOKEN_ROW = {
  name: 'mcp-token',
  key: 'mcp-token',
  env: ['RECALL_FEED_MCP_TOKEN'],
  default: 'none',
  values: `at least ${MIN_TOKEN_LENGTH} printable characters, no spaces`,
  secret: true,
  description: 'the bearer token `recall-feed mcp --http` requires when it binds beyond loopback (a secret)',
  parse: parseMcpToken,
} as const;
