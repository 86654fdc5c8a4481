import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_NOTIFICATIONS_MAX } from '../../src/mcp/mcp-notification-guard.js';
import { collect, own } from '../support/collect-events.js';
import { steps } from '../support/delegation-script.js';
import type { Turn } from '../support/agent-turns.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';

// A hostile stdio server: `flood` writes `n` notifications/tools/list_changed in one go, then
// answers; every tools/list is answered 20 ms later (so listings asked together overlap, and
// are seen to) and names one tool anew (`t<listing>`); `lists` answers how many tools/list it
// had and the most it held at once; any other call answers its own name.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const changed = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }) + '\\n';
let lists = 0;
let pending = 0;
let most = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'h', version: '1' } } });
  if (m.method === 'tools/list') {
    const n = ++lists;
    most = Math.max(most, ++pending);
    const tools = ['flood', 'lists', 't' + n].map((name) => ({ name, inputSchema: { type: 'object' } }));
    return setTimeout(() => (pending--, send({ id: m.id, result: { tools } })), 20);
  }
  if (m.method === 'tools/call' && m.params.name === 'flood') {
    process.stdout.write(changed.repeat(m.params.arguments.n));
    return send({ id: m.id, result: { content: [{ type: 'text', text: 'sent ' + m.params.arguments.n }] } });
  }
  if (m.method === 'tools/call' && m.params.name === 'lists') return send({ id: m.id, result: { content: [{ type: 'text', text: 'listed ' + lists + ', at most ' + most + ' at once' }] } });
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: m.params.name + ' answered' }] } });
  send({ id: m.id, result: {} });
});
`;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const startFixture = delegationFixturePerTest();
afterEach(() => void vi.useRealTimers());

// Attack: 10,000 list_changed (all the guard lets through in one of its windows) in one burst
// during a run. Each used to be able to ask for a listing of its own; now they are coalesced
// into one listing in flight at most, a few in all, and the run holds the tools it started
// with to its end.
describe('an MCP server sending 10,000 notifications/tools/list_changed at once', () => {
  it('is listed one request at a time, a bounded number of times; the run keeps its tools and ends once', async () => {
    // The clock stands still (Date only), so the burst falls within one window of the guard and
    // of the relisting gap however slowly a loaded machine reads it: the counts are exact.
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = steps(call('mcp__h__flood', { n: MCP_NOTIFICATIONS_MAX }), call('mcp__h__lists'), call('mcp__h__t1'));
    const second = steps(call('mcp__h__lists'));
    const f = await startFixture({ main: (turn: Turn) => (turn.prompt === 'go' ? first(turn) : second(turn)) });
    const engine = f.engine({ mcpServers: { h: { command: process.execPath, args: ['--input-type=module', '-e', SERVER] } } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'RunEnd')).toHaveLength(1);
    expect(own(events, 'RunEnd')[0]!.abnormal).toBe(false);
    expect(own(events, 'Warning')).toEqual([]);
    // The start's listing and one for the burst (its first notification; the rest, within the
    // gap, only mark the listing stale): not 10,000, and never two at once.
    expect(own(events, 'ToolCallEnd').map((e) => e.error ?? e.text)).toEqual([`sent ${MCP_NOTIFICATIONS_MAX}`, 'listed 2, at most 1 at once', 't1 answered']);
    // Every request of the run offered the tools it started with: t1, which the server no
    // longer lists, and not t2, which it lists now.
    const offered = f.requestsOf('main').map((r) => (r.body.tools ?? []).map((t) => t.function?.name).filter((n) => n?.startsWith('mcp__')));
    expect(offered).toHaveLength(4);
    for (const names of offered) expect(names).toEqual(['mcp__h__flood', 'mcp__h__lists', 'mcp__h__t1']);
    // The next run finds the listing stale, waits for one listing, and gets the new tools.
    const again = await collect(engine.stream('again'));
    expect(own(again, 'RunEnd')).toHaveLength(1);
    expect(own(again, 'ToolCallEnd').map((e) => e.error ?? e.text)).toEqual(['listed 3, at most 1 at once']);
    expect(f.requestsOf('main').at(-1)!.body.tools?.map((t) => t.function?.name).filter((n) => n?.startsWith('mcp__'))).toEqual(['mcp__h__flood', 'mcp__h__lists', 'mcp__h__t3']);
  }, 60_000);
});
