import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { McpConnection } from '../../../src/mcp/mcp-connection.js';
import type { McpStdioServerConfig } from '../../../src/mcp/mcp-server-config.js';
import { connectionPerTest } from './connection-per-test.js';

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
  const mcp = connectionPerTest();
  return async (mode, env) => {
    const connection = await mcp.connect(name, junkServer(mode, env));
    expect(connection.problem).toBeUndefined();
    return connection;
  };
}
