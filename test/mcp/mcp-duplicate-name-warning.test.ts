import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { hostileStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// The warning quoted the server's raw name whole: 100,000 characters in every run's events
// (and in a terminal, a screenful of x).
describe('an MCP server listing a tool with a 100,000-character name twice', () => {
  it('warns that the second is left out, quoting its name cut short', async () => {
    f = await startFixture({ main: steps({ text: 'done' }) });
    const engine = f.engine({ mcpServers: { twins: hostileStdioServer({ twins: true }) } });
    const events = await collect(engine.stream('go'));
    const twice = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped' && w.message.includes('two tools named'));
    expect(twice).toHaveLength(1);
    expect(twice[0]!.message).toMatch(/^MCP server "twins" offers two tools named mcp__twins__twin_x+_[0-9a-f]{8} once made fit for a model; "twin_x+ \[\.\.\. \d+ characters cut \.\.\.\] x+" is left out\.$/);
    expect(twice[0]!.message.length).toBeLessThan(300);
  }, 60_000);
});
