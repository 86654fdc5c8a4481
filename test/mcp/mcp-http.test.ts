import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, own, record } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { startHttpTestServer, type HttpTestServer } from './support/http-test-server.js';

let mcp: HttpTestServer | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});
// Registered after the afterEach above, so it runs first: this test's engines, then its fixture.
const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

describe('an MCP server over Streamable HTTP (our own, on a loopback port)', () => {
  it('offers and calls its tools, sending the configured headers; close() ends the session', async () => {
    mcp = await startHttpTestServer();
    f = await startFixture({ main: steps(call('mcp__web__echo', { text: 'over http' })) });
    const engine = f.engine({ mcpServers: { web: { url: mcp.url, headers: { authorization: 'Bearer t0k' } } } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'RunEnd')[0]!.text).toBe('final: echo: over http');
    expect(turnOf(f.server.requests[0]!).toolNames).toContain('mcp__web__add');
    expect(mcp.headers.every((h) => h.authorization === 'Bearer t0k')).toBe(true);
    expect(mcp.sessions()).toBe(1);
    await engine.close();
    expect(mcp.sessions()).toBe(0);
  });

  it('cancels a call on the server when the run is unsubscribed', async () => {
    mcp = await startHttpTestServer();
    f = await startFixture({ main: steps(call('mcp__web__wait', { label: 'h' })) });
    const engine = f.engine({ mcpServers: { web: { url: mcp.url } } });
    const run = record(engine.stream('go'));
    await expect.poll(() => mcp!.started).toEqual(['h']);
    run.subscription.unsubscribe();
    await expect.poll(() => mcp!.cancelled).toEqual(['h']);
  });

  it('a server that is not there: a warning naming the cause, the run goes on', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine({ mcpServers: { web: { url: `http://127.0.0.1:${port}/mcp` } } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'Warning')[0]!.message).toMatch(/MCP server "web" failed to start: .*ECONNREFUSED/);
    expect(own(events, 'RunEnd')[0]!.text).toBe('ok');
  });

  it('a server that never answers: the start times out with a warning, and no socket stays open', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine({ mcpServers: { web: { url: `http://127.0.0.1:${port}/mcp`, startTimeoutMs: 300 } } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'Warning')[0]!.message).toMatch(/MCP server "web" failed to start: .*time/i);
    expect(own(events, 'RunEnd')[0]!.text).toBe('ok');
    await engine.close();
    // Our side of the request was aborted: the server sees its connection go (node's fetch
    // drops the socket of an aborted request a few seconds later, not at once).
    const connections = (): Promise<number> => new Promise((resolve) => silent.getConnections((_e, n) => resolve(n)));
    await expect.poll(connections, { timeout: 8_000, interval: 100 }).toBe(0);
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('a server that forgets the session: the call fails, then the next run reconnects', async () => {
    mcp = await startHttpTestServer();
    f = await startFixture({ main: (turn) => steps(call('mcp__web__echo', { text: turn.prompt }))(turn) });
    const engine = f.engine({ mcpServers: { web: { url: mcp.url } } });
    expect((await engine.call('one')).text).toBe('final: echo: one');
    await mcp.dropSessions();
    const failed = own(await collect(engine.stream('two')), 'ToolCallEnd')[0]!;
    expect(failed.text).toMatch(/^ERROR: MCP server "web" failed during the call/);
    expect((await engine.call('three')).text).toBe('final: echo: three');
  });

  it('leaves no socket or timer behind once the engine is closed', async () => {
    mcp = await startHttpTestServer();
    f = await startFixture({ main: steps(call('mcp__web__add', { a: 1, b: 2 })) });
    const baseline = resourceCounts();
    const engine = f.engine({ mcpServers: { web: { url: mcp.url } } });
    expect((await engine.call('go')).text).toBe('final: 3');
    await engine.close();
    // The servers' sides of the sockets (and the model client's kept-alive one) are not
    // the engine's: close them first.
    await mcp.close();
    mcp = undefined;
    await f.server.close();
    expect(await leakedResources(baseline)).toEqual({});
  });
});
