import { describe, expect, it } from 'vitest';
import { connectionPerTest } from './support/connection-per-test.js';
import { ourStdioServer } from './support/mcp-configs.js';

const mcp = connectionPerTest();

const signal = (): AbortSignal => new AbortController().signal;

// A call failing because its engine was closed said the server "is started again when the
// next run starts": no run starts on a closed engine, so the model (and whoever reads the
// run) was told to wait for something that never comes.
describe('an MCP call once its engine is closed', () => {
  it('in flight when the engine closes: fails saying the engine is closed, not that a run starts it again', async () => {
    const marks = await mcp.marks();
    const connection = await mcp.connect('our', ourStdioServer(marks.env));
    expect(connection.problem).toBeUndefined();
    const call = connection.call('wait', { label: 'w' }, signal());
    call.catch(() => undefined); // awaited below, once the close is under way
    await marks.waitFor(/^started w$/);
    await connection.close();
    await expect(call).rejects.toThrow('MCP server "our" failed during the call (was closed with the engine); its engine is closed, so no run starts it again');
  }, 30_000);

  it('made after the engine closed: fails saying the engine is closed', async () => {
    const connection = await mcp.connect('our', ourStdioServer());
    await connection.close();
    await expect(connection.call('echo', { text: 'a' }, signal())).rejects.toThrow('MCP server "our" is not running (was closed with the engine); its engine is closed, so no run starts it again');
  }, 30_000);

  it('made while the server is lost but the engine open: still says the next run starts it again', async () => {
    const connection = await mcp.connect('our', ourStdioServer());
    await expect(connection.call('crash', {}, signal())).rejects.toThrow(/^MCP server "our" failed during the call \(stopped: .*\); it is started again when the next run starts$/s);
    await expect(connection.call('echo', { text: 'a' }, signal())).rejects.toThrow(/^MCP server "our" is not running \(stopped: .*\); it is started again when the next run starts$/s);
  }, 30_000);
});
