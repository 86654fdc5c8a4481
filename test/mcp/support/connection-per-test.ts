/**
 * The MCP connections a test starts, and its marks file: closed and removed after each test.
 * It replaces the `let connection; let marks; afterEach(close, clean up)` each file wrote out.
 *
 * @module
 */
import { afterEach } from 'vitest';
import { McpConnection } from '../../../src/mcp/mcp-connection.js';
import type { McpServerConfig } from '../../../src/mcp/mcp-server-config.js';
import { marksFile, type Marks } from './mcp-configs.js';

/** The current test's connections and marks file; see {@link connectionPerTest}. */
export interface ConnectionPerTest {
  /** Connects to `config` as server `name` (from this process's folder) and waits for its start, which may have failed: see its `problem`. */
  connect(name: string, config: McpServerConfig): Promise<McpConnection>;
  /** A fresh marks file, removed after the test once its connections are closed. */
  marks(): Promise<Marks>;
}

/**
 * Registers the `afterEach` that closes every connection the test made (each awaited in
 * turn), then removes its marks file; returns the way to make them. Call once at the top of
 * a test file. Vitest runs after-hooks last registered first: register this before the
 * hooks that must run before it (a fixture whose engines use the marks file), after those
 * that must run after it (the server a connection talks to).
 */
export function connectionPerTest(): ConnectionPerTest {
  const connections: McpConnection[] = [];
  let marks: Marks | undefined;
  afterEach(async () => {
    for (const connection of connections.splice(0)) await connection.close();
    // After the connections: a server may write its marks until it is closed.
    await marks?.cleanup();
    marks = undefined;
  });
  return {
    async connect(name, config) {
      const connection = new McpConnection(name, config, process.cwd());
      connections.push(connection);
      await connection.ensure();
      return connection;
    },
    async marks() {
      marks = await marksFile();
      return marks;
    },
  };
}
