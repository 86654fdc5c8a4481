/**
 * A real SDK client on {@link openTransport}'s guarded transport (what a connection uses),
 * counting the messages the transport parsed once we stopped listening: after we closed it,
 * or after a guard gave up on its server. Every message the SDK reads off the server's
 * stdout and parses reaches the transport's `onmessage`, so the count is the marker of
 * reading that should not happen, whatever the machine's speed.
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadMcpSdk } from '../../../src/mcp/mcp-sdk.js';
import type { McpStdioServerConfig } from '../../../src/mcp/mcp-server-config.js';
import { openTransport } from '../../../src/mcp/mcp-transport.js';

/** The client, its server's pid, and what was parsed when it should no longer have been. */
export interface WatchedClient {
  readonly client: Client;
  readonly pid: number;
  /** Messages parsed since {@link WatchedClient.close} was called or a guard gave up. */
  parsedAfterStop(): number;
  /** Why rxharness closed the connection, if it did. */
  closedBecause(): string | undefined;
  /** Closes the client (and so the transport), counting from now. */
  close(): Promise<void>;
}

/** Starts the server of `config` and connects a watched client to it. */
export async function watchedClient(config: McpStdioServerConfig): Promise<WatchedClient> {
  const sdk = await loadMcpSdk();
  const { transport, closedBecause } = openTransport(sdk, config, process.cwd());
  const client = new sdk.Client({ name: 'rxharness-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  let closing = false;
  let after = 0;
  // Set by connect (and wrapped by the guards): the one path every parsed message takes.
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (closing || closedBecause() !== undefined) after++;
    onmessage?.(message, extra);
  };
  const pid = transport instanceof sdk.StdioClientTransport ? transport.pid : null;
  if (pid === null) throw new Error('the server has no process');
  return {
    client,
    pid,
    parsedAfterStop: () => after,
    closedBecause,
    close: () => {
      closing = true;
      return client.close();
    },
  };
}
