import { describe, expect, it } from 'vitest';
import { collect, own, record } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { MAX_MCP_RESULT_CHARS } from '../../src/mcp/mcp-result-text.js';
import { alive, ourStdioServer, pidMarkedStdioServer, type Marks } from './support/mcp-configs.js';
import { mcpFixturePerTest, toolCall } from './support/mcp-fixture-per-test.js';

const { startFixture, newMarks } = mcpFixturePerTest();
let f: DelegationFixture;
const call = toolCall;
const pidOf = async (m: Marks): Promise<number> => Number((await m.waitFor(/^pid /)).slice(4));

// Starting node with tsx took seconds on a busy machine, and every wait that counted it failed
// there. The server is waited for on its own, as long as a start may take (the engine's own
// default start timeout is 30 s); the waits after it, for what the server does, start once it
// is up, and the tests' own timeout holds both.
const SERVER_UP_MS = 45_000;
const TEST_MS = 90_000;
/** Resolves once our server has marked its pid: it is up and reading its stdin. */
const serverUp = (m: Marks): Promise<string> => m.waitFor(/^pid /, SERVER_UP_MS);

describe('an MCP server that misbehaves', { timeout: TEST_MS }, () => {
  it('answering a huge text: the model reads its start and end, cut to the cap', async () => {
    f = await startFixture({ main: steps(call('mcp__t__huge', { chars: 2_000_000 })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer() } });
    const end = own(await collect(engine.stream('go')), 'ToolCallEnd')[0]!;
    expect(end.text.length).toBeLessThan(MAX_MCP_RESULT_CHARS + 100);
    expect(end.text).toMatch(/^aaa/);
    expect(end.text).toMatch(/END$/);
    expect(end.text).toContain('characters omitted');
  });

  it('with a tool name models refuse: it is renamed, and calls reach the tool', async () => {
    f = await startFixture({ main: steps(call('mcp__t__odd_name_with_spaces_')) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer() } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'RunEnd')[0]!.text).toBe('final: odd ok');
  });

  it('hanging on start: the start times out, the run goes on without its tools and says why', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__echo', { text: 'x' })) });
    // The pid is marked by the wrapper at spawn, so the start may time out before node is up;
    // 2 s still leaves the wrapper's echo a wide margin on a busy machine.
    const server = pidMarkedStdioServer({ ...marks.env, MCP_TEST_HANG: '1' }, { startTimeoutMs: 2_000 });
    const engine = f.engine({ mcpServers: { t: server } });
    const events = await collect(engine.stream('go'));
    const warning = own(events, 'Warning')[0]!;
    expect(warning.code).toBe('mcp-server-failed');
    expect(warning.message).toMatch(/MCP server "t" failed to start: .*time/i);
    expect(turnOf(f.server.requests[0]!).toolNames.some((n) => n.startsWith('mcp__'))).toBe(false);
    expect(own(events, 'ToolCallEnd')[0]!.text).toMatch(/^ERROR: /);
    expect(own(events, 'RunEnd')).toHaveLength(1);
    // The process of the failed start is gone.
    const pid = await pidOf(marks);
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });

  it('exiting on start: the warning carries the end of its stderr', async () => {
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer({ MCP_TEST_EXIT: '1' }) } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'Warning')[0]!.message).toContain('cannot start: no configuration');
    expect(own(events, 'RunEnd')[0]!.text).toBe('ok');
  });

  it('printing lines that are not JSON-RPC on stdout: they are skipped, the tools work', async () => {
    f = await startFixture({ main: steps(call('mcp__t__echo', { text: 'through the noise' })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer({ MCP_TEST_NOISE: '1' }) } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'RunEnd')[0]!.text).toBe('final: echo: through the noise');
  });

  it('a command that does not exist: a warning, not a crash', async () => {
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine({ mcpServers: { gone: { command: 'rxharness-no-such-command-xyz' } } });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'Warning')[0]!.message).toMatch(/MCP server "gone" failed to start: .*ENOENT/);
    expect(own(events, 'RunEnd')[0]!.text).toBe('ok');
  });

  it('crashing mid-call: the call fails, the run ends normally, the next run starts it again', async () => {
    const marks = await newMarks();
    let script = steps(call('mcp__t__crash'));
    f = await startFixture({ main: (turn) => script(turn) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const events = await collect(engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toMatch(/^ERROR: MCP server "t" failed during the call/);
    expect(end.error).toBeDefined();
    expect(own(events, 'RunEnd')).toHaveLength(1);
    script = steps(call('mcp__t__echo', { text: 'back' }));
    const again = await collect(engine.stream('go'));
    expect(own(again, 'RunEnd')[0]!.text).toBe('final: echo: back');
    await expect.poll(async () => (await marks!.lines()).filter((l) => l.startsWith('pid')).length).toBe(2);
  });

  it('shared by 10 concurrent runs: one process, every answer to its own call', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: (turn) => steps(call('mcp__t__echo', { text: turn.prompt }))(turn) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const prompts = Array.from({ length: 10 }, (_, i) => `run-${i}`);
    const results = await Promise.all(prompts.map((p) => engine!.call(p)));
    expect(results.map((r) => r.text)).toEqual(prompts.map((p) => `final: echo: ${p}`));
    expect((await marks.lines()).filter((l) => l.startsWith('pid'))).toHaveLength(1);
  });
});

describe('cancelling an MCP call', { timeout: TEST_MS }, () => {
  it('unsubscribing the run cancels the call on the server (notifications/cancelled)', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__wait', { label: 'u' })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const run = record(engine.stream('go'));
    await serverUp(marks);
    await marks.waitFor(/^started u$/);
    run.subscription.unsubscribe();
    await marks.waitFor(/^cancelled u$/);
  });

  it('cancelling one of several runs on one server cancels its call only', async () => {
    const marks = await newMarks();
    // r0 waits until cancelled: on a busy machine the four calls can start further apart than
    // the others' 1.5 s, and r0 must still be waiting when it is cancelled.
    const wait = (label: string) => (label === 'r0' ? { label } : { label, ms: 1_500 });
    f = await startFixture({ main: (turn) => steps(call('mcp__t__wait', wait(turn.prompt)))(turn) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const runs = ['r0', 'r1', 'r2', 'r3'].map((p) => record(engine!.stream(p)));
    await serverUp(marks);
    await expect.poll(async () => (await marks!.lines()).filter((l) => l.startsWith('started')).length, { timeout: 10_000 }).toBe(4);
    runs[0]!.subscription.unsubscribe();
    await Promise.all(runs.slice(1).map((r) => r.done));
    expect(runs.slice(1).map((r) => own(r.events, 'RunEnd')[0]!.text)).toEqual(['final: waited r1', 'final: waited r2', 'final: waited r3']);
    expect((await marks.lines()).filter((l) => l.startsWith('cancelled'))).toEqual(['cancelled r0']);
  });

  it('the tool timeout cancels it on the server, and the call fails', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__wait', { label: 't' })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) }, toolTimeoutMs: 500 });
    const events = await collect(engine.stream('go'));
    expect(own(events, 'ToolCallEnd')[0]!.text).toMatch(/^ERROR: .*did not finish within 500 ms/);
    await marks.waitFor(/^cancelled t$/);
  });

  it('engine.close() during a call cancels it and ends the server process', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: steps(call('mcp__t__wait', { label: 'c' })) });
    const engine = f.engine({ mcpServers: { t: ourStdioServer(marks.env) } });
    const run = engine.start('go');
    await serverUp(marks);
    await marks.waitFor(/^started c$/);
    const pid = await pidOf(marks);
    await engine.close();
    expect(alive(pid)).toBe(false);
    await run.result.catch(() => undefined);
  });

  it('engine.close() while a server is still starting ends its process too', async () => {
    const marks = await newMarks();
    f = await startFixture({ main: () => ({ text: 'ok' }) });
    const engine = f.engine({ mcpServers: { t: pidMarkedStdioServer({ ...marks.env, MCP_TEST_HANG: '1' }) } });
    const run = record(engine.stream('go'));
    // Marked by the wrapper at spawn: this wait is for the server's start itself.
    const pid = Number((await serverUp(marks)).slice(4));
    await engine.close();
    expect(alive(pid)).toBe(false);
    run.subscription.unsubscribe();
  });
});
