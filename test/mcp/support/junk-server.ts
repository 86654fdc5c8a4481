import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { McpConnection } from '../../../src/mcp/mcp-connection.js';
import type { McpStdioServerConfig } from '../../../src/mcp/mcp-server-config.js';

const JUNK = fileURLToPath(new URL('./junk-stdio-server.mjs', import.meta.url));

/** The misbehaving stdio server (`junk-stdio-server.mjs`) in `mode`, with `env` beside the mode. */
export function junkServer(mode: string, env: Record<string, string> = {}): McpStdioServerConfig {
  return { command: process.execPath, args: [JUNK], env: { MCP_JUNK_MODE: mode, ...env } };
}

/**
 * Registers an `afterEach` that closes the connection the test started, and answers a
 * `started(mode)` that connects to the junk server in `mode` and checks it started cleanly.
 */
export function junkConnectionPerTest(name = 'junk'): (mode: string, env?: Record<string, string>) => Promise<McpConnection> {
  let connection: McpConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });
  return async (mode, env) => {
    connection = new McpConnection(name, junkServer(mode, env), process.cwd());
    await connection.ensure();
    expect(connection.problem).toBeUndefined();
    return connection;
  };
}
