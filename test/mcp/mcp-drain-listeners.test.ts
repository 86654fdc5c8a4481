import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/mcp/mcp-connection.js';
import { MCP_UNSENT_MAX } from '../../src/mcp/mcp-send-guard.js';
import { countingClient, floodServer, type CountingClient, type FloodServer } from '../support/mcp-flood-kit.js';
import { pingFloodStdioServer } from './support/mcp-configs.js';

let warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
let connection: McpConnection | undefined;
let server: FloodServer | undefined;
let counting: CountingClient | undefined;
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(async () => {
  await connection?.close();
  await counting?.client.close();
  await server?.cleanup();
  connection = server = counting = undefined;
  process.off('warning', onWarning);
});

/** The `MaxListenersExceededWarning`s node emitted (it emits them on the next tick). */
async function listenerWarnings(): Promise<string[]> {
  await new Promise((resolve) => setImmediate(resolve));
  return warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message);
}

// The SDK's stdio `send` adds a `drain` listener to the server's stdin for each message that
// finds it full: a server pinging without reading had 1,000 of them at once on one socket.
describe('messages to a stdio MCP server that is not reading', () => {
  it('wait on its stdin one at a time: a ping flood is closed as before, with no MaxListenersExceededWarning', async () => {
    connection = new McpConnection('flood', pingFloodStdioServer(), process.cwd());
    await connection.ensure();
    await expect.poll(() => connection!.running, { timeout: 15_000, interval: 50 }).toBe(false);
    expect(connection.problem).toBe(`stopped: it did not take the last ${MCP_UNSENT_MAX} messages rxharness sent it, so rxharness closed the connection`);
    expect(await listenerWarnings()).toEqual([]);
  }, 30_000);

  it('all reach it, in order, once it reads again, when fewer than the bound wait', async () => {
    server = await floodServer();
    counting = await countingClient(server.config);
    // 900 answers of 400-odd bytes: several times what the pipe and the stream buffers hold.
    const held = counting.client.callTool({ name: 'hold', arguments: { n: 900 } });
    // Its list_changed follows the pings: once it is in, every ping has been answered.
    await expect.poll(() => counting!.counts.listChanged, { timeout: 15_000, interval: 20 }).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await server.letGo();
    expect((await held).content).toEqual([{ type: 'text', text: 'took 900 answers of 900, in order' }]);
    expect(counting.closedBecause()).toBeUndefined();
    expect(await listenerWarnings()).toEqual([]);
  }, 30_000);
});
