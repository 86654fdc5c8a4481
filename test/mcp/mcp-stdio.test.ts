import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { alive, ourStdioServer } from './support/mcp-configs.js';
import { mcpFixturePerTest, toolCall } from './support/mcp-fixture-per-test.js';

const { startFixture, newMarks } = mcpFixturePerTest();
let f: DelegationFixture;
const call = toolCall;

describe('an MCP server over stdio (our own, built with the SDK)', () => {
  it('offers its tools as mcp__<server>__<tool>, calls them, and stops with engine.close()', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__echo', { text: 'hi' })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const events = await collect(engine.stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(end.text).toBe('final: echo: hi');
    const offered = turnOf(f.server.requests[0]!).toolNames;
    expect(offered).toEqual(expect.arrayContaining(['read', 'mcp__t__echo', 'mcp__t__add', 'mcp__t__odd_name_with_spaces_', 'task']));
    // Built-ins first, then the server's tools, then delegation.
    expect(offered.indexOf('mcp__t__echo')).toBeGreaterThan(offered.indexOf('read'));
    expect(offered.indexOf('mcp__t__echo')).toBeLessThan(offered.indexOf('task'));
    const pid = Number((await marks.waitFor(/^pid /)).slice(4));
    expect(alive(pid)).toBe(true);
    await engine.close();
    expect(alive(pid)).toBe(false);
  });

  it('starts nothing before the first run, and one process for many runs', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__add', { a: 2, b: 3 })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await marks.lines()).toEqual([]);
    expect((await engine.call('one')).text).toBe('final: 5');
    expect((await engine.call('two')).text).toBe('final: 5');
    expect((await marks.lines()).filter((l) => l.startsWith('pid'))).toHaveLength(1);
  });

  it('reads a tool error (isError) as a failed call the run survives', async () => {
    f = await startFixture({ main: steps(call('mcp__t__fail')) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer() } });
    const events = await collect(engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toBe('ERROR: it went wrong');
    expect(own(events, 'RunEnd')[0]!.text).toBe('final: ERROR: it went wrong');
  });

  it('checks the arguments against the server schema before calling', async () => {
    f = await startFixture({ main: steps(call('mcp__t__add', { a: 'two', b: 3 })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer() } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toMatch(/^ERROR: .*a/);
  });

  it('leaves no process, timer or socket behind once the engine is closed', async () => {
    f = await startFixture({ main: steps(call('mcp__t__echo', { text: 'x' })) });
    const baseline = resourceCounts();
    const processes = (): number => process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap').length;
    const before = processes();
    const engine = f.engine({ mcpServers: { t: ourStdioServer() } });
    expect((await engine.call('go')).text).toBe('final: echo: x');
    expect(processes()).toBe(before + 1);
    await engine.close();
    // The model client's kept-alive socket is the fake server's to close.
    await f.server.close();
    await expect.poll(processes, { timeout: 1_000, interval: 10 }).toBe(before);
    expect(await leakedResources(baseline)).toEqual({});
  });
});
