import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';

const SERVER = fileURLToPath(new URL('./support/async-pattern-stdio-server.mjs', import.meta.url));
const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const BIG = `${'\\w{1000}'.repeat(9)}\\d`;

// ajv accepts `"$async": true` and compiles a validator that answers a Promise: the output
// check read it as valid, and its rejection, unhandled, ended the process mid-run. RE2 runs a
// pattern in linear time, but `\w{1000}` nine times over compiles into 9,000 steps, each work
// at every character: one answer of 20,000 characters held the event loop 9 s.
describe('a hostile MCP server (a real one over stdio) with "$async" schemas and patterns of huge programs', () => {
  it('leaves out a tool whose input schema is async, checks nothing of an async output schema, and does not enforce a huge pattern', async () => {
    f = await startFixture({
      main: steps(call('mcp__evil__async_output'), call('mcp__evil__big_pattern', { word: 'a' }), call('mcp__evil__big_output'), { text: 'done' }),
    });
    const engine = f.engine({ mcpServers: { evil: { command: process.execPath, args: [SERVER] } } });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__evil__')).sort()).toEqual([
      'mcp__evil__async_output',
      'mcp__evil__big_output',
      'mcp__evil__big_pattern',
    ]);
    const warnings = own(events, 'Warning');
    expect(warnings.filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message)).toEqual([
      'MCP server "evil" offers mcp__evil__async_input with an input schema that cannot be checked against: it has "$async": true (at the root): asynchronous schemas are not supported here; it is left out.',
    ]);
    const unenforced = warnings.filter((w) => w.code === 'mcp-pattern-unenforced').map((w) => w.message);
    expect(unenforced).toEqual([expect.stringMatching(/mcp__evil__big_pattern is not checked here \(it would compile to a program of over 1000 steps/)]);
    expect(unenforced[0]).toContain(JSON.stringify(BIG).slice(0, 60));
    // The async output schema checks nothing (as one that does not compile), the huge pattern
    // is not enforced: the server's answers reach the model, and the run ends as it should.
    expect(own(events, 'ToolCallEnd').map((e) => e.text)).toEqual(['async_output ran', 'big_pattern ran', 'big_output ran']);
  }, 60_000);
});
