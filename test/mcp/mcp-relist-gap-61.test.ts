import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_RELIST_GAP_MS, type McpConnection } from '../../src/mcp/mcp-connection.js';
import { mcpResultText } from '../../src/mcp/mcp-result-text.js';
import { connectionPerTest } from './support/connection-per-test.js';

// A stdio server that answers every tools/list with a list_changed, as a server in a loop
// would; `count` answers how many times it was listed, `poke` sends one more list_changed.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const changed = () => send({ method: 'notifications/tools/list_changed' });
let listed = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'h', version: '1' } } });
  if (m.method === 'tools/list') {
    send({ id: m.id, result: { tools: [{ name: 'count', inputSchema: { type: 'object' } }, { name: 'poke', inputSchema: { type: 'object' } }] } });
    return changed();
  }
  if (m.method === 'tools/call' && m.params.name === 'poke') changed();
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: 'listed ' + listed }] } });
  send({ id: m.id, result: {} });
});
`.replace("send({ id: m.id, result: { tools", "listed++;\n    send({ id: m.id, result: { tools");

afterEach(() => void vi.useRealTimers());
// Registered after the afterEach above, so it runs first: the connection is closed on the test's clock.
const mcp = connectionPerTest();

const signal = (): AbortSignal => new AbortController().signal;
// Each answer comes after whatever the server wrote before it (a list_changed), and after
// the listing the connection asked for on reading it, if it asked.
const listed = async (c: McpConnection): Promise<number> => Number(/^listed (\d+)$/.exec(String(mcpResultText(await c.call('count', {}, signal()))))![1]);

// Every list_changed was answered by a listing, at once: a server answering each listing with
// a list_changed (of a 9.8 MiB listing) kept an idle engine 37% busy.
describe('an MCP server saying its tools changed after every listing', () => {
  it(`is listed by itself at most once per ${MCP_RELIST_GAP_MS} ms; within that, by the next run that needs it`, async () => {
    // Virtual time for the gap only (Date): the server's pipes run on the real clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    const c = await mcp.connect('h', { command: process.execPath, args: ['--input-type=module', '-e', SERVER] });
    // The start's listing, and at most one for the list_changed that followed it (listed at
    // once if it came once the start was over); by the second answer, that one has been asked
    // for. The list_changed after that waits.
    await listed(c);
    const started = await listed(c);
    expect(started).toBeLessThanOrEqual(2);
    expect(await listed(c)).toBe(started);
    expect(await listed(c)).toBe(started);
    // A run needing the server lists it first; the list_changed after that waits too.
    const relisting = c.ensure();
    expect(relisting).toBeInstanceOf(Promise);
    await relisting;
    expect(await listed(c)).toBe(started + 1);
    expect(await listed(c)).toBe(started + 1);
    // Past the gap, a change is listed by itself again, once.
    vi.advanceTimersByTime(MCP_RELIST_GAP_MS);
    await c.call('poke', {}, signal());
    await expect.poll(() => listed(c)).toBe(started + 2);
    expect(await listed(c)).toBe(started + 2);
    expect(await listed(c)).toBe(started + 2);
  });
});
