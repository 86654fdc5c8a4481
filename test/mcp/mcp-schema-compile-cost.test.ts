import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { hostileStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;
afterEach(() => {
  vi.restoreAllMocks();
});

const WIDE = 64;
const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

/** Which wide tool (`wide_<t>`, whose properties are `f<t>_<i>`) `schema` is the input schema of; undefined for any other. */
function wideTool(schema: unknown): number | undefined {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const first = /^f(\d+)_0$/.exec(Object.keys(properties ?? {})[0] ?? '');
  return first === null ? undefined : Number(first[1]);
}

// Compiling an input schema costs about half a second per 64 KiB: compiled when listed, 256
// such tools held the event loop for minutes at each listing. Counted in schemas compiled, not
// time: 64 tools of some 3 KiB each fit the bound on a server's tools (256 KiB), so all are
// offered, and compiling each when listed would compile all 64.
describe(`an MCP server listing ${WIDE} tools, each with its own input schema`, () => {
  it('offers them all, compiling none; a call compiles the schema of its own tool only, once, and is checked against it', async () => {
    const compiled: number[] = [];
    const compile = Ajv.prototype.compile;
    vi.spyOn(Ajv.prototype, 'compile').mockImplementation(function (this: Ajv, schema, meta) {
      const tool = wideTool(schema);
      if (tool !== undefined) compiled.push(tool);
      return compile.call(this, schema, meta);
    });
    f = await startFixture({ main: steps(call('mcp__wide__wide_3', { f3_0: 7 }), call('mcp__wide__wide_3', { f3_0: 'ok' })) });
    const engine = f.engine({ mcpServers: { wide: hostileStdioServer({ wide: WIDE, wideFields: 50 }) } });
    const events = await collect(engine.stream('go'));
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__wide__wide_'));
    expect(offered).toHaveLength(WIDE);
    const ends = own(events, 'ToolCallEnd').map((e) => e.text);
    expect(ends[0]).toMatch(/^ERROR: .*"f3_0" must be string/);
    expect(ends[1]).toBe('wide_3 got {"f3_0":"ok"}');
    expect(compiled).toEqual([3]);
  }, 120_000);
});
