import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { slowPagesStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// `startTimeoutMs` bounds the whole start (docs/mcp.md: "spawn, handshake, tool list"), but
// each page of the list had a timeout of its own: a server answering every page just in time
// held the start, and every run that needed it, for up to 100 pages of it (here 40 s, at the
// default 30 s a page 50 minutes).
describe('an MCP server listing its tools one page at a time, each just within the start timeout', () => {
  it('fails to start once startTimeoutMs is over in all: the run waits about that long, and goes on without it', async () => {
    f = await startFixture({ main: steps({ text: 'done' }) });
    const engine = f.engine({ mcpServers: { slow: slowPagesStdioServer(400, 1_500) } });
    const started = performance.now();
    const events = await collect(engine.stream('go'));
    const waited = performance.now() - started;
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(own(events, 'Warning').map((w) => [w.code, w.message])).toEqual([['mcp-server-failed', expect.stringMatching(/MCP server "slow" failed to start: .*timed out/i)]]);
    expect(turnOf(f.server.requests[0]!).toolNames.some((n) => n.startsWith('mcp__'))).toBe(false);
    // The start timeout, the server's stop and the run (some 4 s, more on a busy machine),
    // not 100 pages: the bound sits halfway to the 40 s that a timeout per page would take.
    expect(waited).toBeLessThan(20_000);
  }, 60_000);
});
