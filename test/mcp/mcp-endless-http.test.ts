import { afterEach, describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { startEndlessHttpServer, type EndlessHttpServer } from './support/endless-http-server.js';

let server: EndlessHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// Unbounded, such an answer was read into memory for as long as the server sent it (a
// process-wide out-of-memory crash), and the call waited for the tool timeout.
describe.each(['sse', 'json'] as const)('an MCP server over HTTP answering a call with an endless %s body', (kind) => {
  it('is cut off at 10 MiB: the call fails saying so, at once, and the run goes on', async () => {
    server = await startEndlessHttpServer(kind);
    f = await startFixture({ main: steps({ toolCalls: [{ name: 'mcp__endless__endless', arguments: {} }] }) });
    const engine = f.engine({ mcpServers: { endless: { url: server.url } }, toolTimeoutMs: 20_000 });
    const events = await collect(engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    expect(end.text).toMatch(/^ERROR: MCP server "endless" failed during the call \(stopped: its answer went over 10 MiB in (one event|all), so rxharness closed the connection\)/);
    expect(server.written()).toBeLessThan(32 * 1024 * 1024);
    expect(own(events, 'RunEnd')).toHaveLength(1);
  }, 60_000);
});
