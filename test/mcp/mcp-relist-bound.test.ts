import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import { mcpResultText } from '../../src/mcp/mcp-result-text.js';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import { createToolContext } from '../support/tool-context.js';
import { connectionPerTest } from './support/connection-per-test.js';

// A stdio server that answers the listing of its start, and holds every later tools/list
// until `release` is called (then answers those held); `poke` says list_changed twice, so
// the first is listed at once and the second, within the gap, marks the listing stale. Each
// call answers how many tools/list it was asked.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const tools = { tools: ['poke', 'release', 'count'].map((name) => ({ name, inputSchema: { type: 'object' } })) };
let lists = 0;
const held = [];
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'h', version: '1' } } });
  if (m.method === 'tools/list') return lists++ === 0 ? send({ id: m.id, result: tools }) : held.push(m.id);
  if (m.method === 'tools/call' && m.params.name === 'poke') {
    send({ method: 'notifications/tools/list_changed' });
    send({ method: 'notifications/tools/list_changed' });
  }
  if (m.method === 'tools/call' && m.params.name === 'release') for (const id of held.splice(0)) send({ id, result: tools });
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: 'lists ' + lists }] } });
  send({ id: m.id, result: {} });
});
`;
const config = (startTimeoutMs: number): McpStdioServerConfig => ({ command: process.execPath, args: ['--input-type=module', '-e', SERVER], startTimeoutMs });
const signal = (): AbortSignal => new AbortController().signal;
const EVERY_TOOL = { names: [], select: { servers: () => true, keep: (names: readonly string[]) => names } };

/** Has the server say its tools changed twice: one listing is under way (held by the server), and the listing is stale. */
const poke = async (c: McpConnection): Promise<void> => void (await c.call('poke', {}, signal()));
/** Settles `promise`'s state into `seen`, so a test can look without awaiting. */
function watch(promise: Promise<unknown>): { done: boolean } {
  const seen = { done: false };
  void promise.then(() => (seen.done = true));
  return seen;
}

let servers: McpServers | undefined;
// Registered first, so it runs last: the connections are closed on the test's clock.
afterEach(() => void vi.useRealTimers());
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});
const mcp = connectionPerTest();

describe('a listing after list_changed that a run waits for', () => {
  it('is bounded by the server\'s startTimeoutMs: one that fails loses the server, and the run is warned', async () => {
    servers = new McpServers({ h: config(1_000) }, process.cwd());
    const first = await servers.toolsFor(EVERY_TOOL);
    expect(first.warnings).toEqual([]);
    // Virtual time from here: the listing's bound (Date and the SDK's request timer).
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    await first.tools.find((t) => t.name === 'mcp__h__poke')!.execute({}, createToolContext());
    const run = servers.toolsFor(EVERY_TOOL);
    expect(run).toBeInstanceOf(Promise);
    const seen = watch(Promise.resolve(run));
    await vi.advanceTimersByTimeAsync(999);
    expect(seen.done).toBe(false);
    // It was 30 s (DEFAULT_MCP_START_TIMEOUT_MS) whatever the config said, and silent after.
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.done).toBe(true);
    const { warnings } = await run;
    expect(warnings).toEqual([
      {
        code: 'mcp-server-failed',
        message: expect.stringMatching(
          /^MCP server "h" stopped: its tools could not be listed again after it said they changed \(within its startTimeoutMs, 1000 ms\): MCP error -32001: Request timed out.* In this run its tools fail until it runs again; the next run starts it again\.$/,
        ),
      },
    ]);
  });

  it('is the one under way: a run waits for one listing, not for that one and the next', async () => {
    const c = await mcp.connect('h', config(60_000));
    expect(c.problem).toBeUndefined();
    await poke(c);
    const waiting = c.ensure();
    expect(waiting).toBeInstanceOf(Promise);
    const seen = watch(waiting!);
    // Answers the listing under way (its answer is read before this call's); the next one,
    // asked for meanwhile, the server holds.
    await c.call('release', {}, signal());
    await c.call('count', {}, signal());
    expect(seen.done).toBe(true);
    // The change the listing under way may have missed is listed next, for the runs after.
    await expect.poll(async () => mcpResultText(await c.call('count', {}, signal()))).toBe('lists 3');
    expect(c.problem).toBeUndefined();
    expect(c.running).toBe(true);
  });
});
