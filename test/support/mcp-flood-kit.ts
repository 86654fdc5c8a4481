/**
 * The flooding MCP server of mcp-flood-stdio-server.mjs as a config, with its marks and go
 * files in a fresh temp folder, and a real SDK client on {@link openTransport}'s guarded
 * transport (what a connection uses) that counts what reaches its notification handlers.
 *
 * @module
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadMcpSdk } from '../../src/mcp/mcp-sdk.js';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import { openTransport } from '../../src/mcp/mcp-transport.js';

const SERVER = fileURLToPath(new URL('./mcp-flood-stdio-server.mjs', import.meta.url));

/** The flooding server's config, and its files. */
export interface FloodServer {
  readonly config: McpStdioServerConfig;
  /** How many times it was asked for its tools. */
  listings(): Promise<number>;
  /** Lets a `hold` call read its stdin again. */
  letGo(): Promise<void>;
  cleanup(): Promise<void>;
}

/** A flooding server (see mcp-flood-stdio-server.mjs) with its own temp folder. */
export async function floodServer(): Promise<FloodServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rxharness-mcp-flood-'));
  const marks = join(dir, 'marks.txt');
  const go = join(dir, 'go');
  return {
    config: { command: process.execPath, args: [SERVER], env: { MCP_FLOOD_MARKS: marks, MCP_FLOOD_GO: go } },
    listings: async () => (await readFile(marks, 'utf8').catch(() => '')).split('\n').filter(Boolean).length,
    letGo: () => writeFile(go, ''),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** How many times each of the client's notification handlers ran. */
export interface HandlerCounts {
  /** Its `tools/list_changed` handler (what a connection acts on). */
  listChanged: number;
  /** Its fallback, for a notification no handler takes (`notifications/message`, `resources/updated`). */
  fallback: number;
  /** Its `onerror` (the SDK reports there each progress notification it did not ask for). */
  errors: number;
}

/** A real SDK client connected to `config` through {@link openTransport}, and what its handlers saw. */
export interface CountingClient {
  readonly client: Client;
  readonly counts: HandlerCounts;
  /** Why rxharness closed the connection, if it did. */
  closedBecause(): string | undefined;
}

/** Starts the server of `config` and connects a client to it that counts its notification handlers' runs. */
export async function countingClient(config: McpStdioServerConfig): Promise<CountingClient> {
  const sdk = await loadMcpSdk();
  const counts: HandlerCounts = { listChanged: 0, fallback: 0, errors: 0 };
  const { transport, closedBecause } = openTransport(sdk, config, process.cwd());
  const onChanged = (): void => void (counts.listChanged += 1);
  const client = new sdk.Client(
    { name: 'rxharness-test', version: '1.0.0' },
    { capabilities: {}, listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged } } },
  );
  client.fallbackNotificationHandler = async () => void (counts.fallback += 1);
  client.onerror = () => void (counts.errors += 1);
  await client.connect(transport);
  return { client, counts, closedBecause };
}
