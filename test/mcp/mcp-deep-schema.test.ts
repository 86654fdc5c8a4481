import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/events/json.js';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { mcpOutputValidator } from '../../src/mcp/mcp-output-validator.js';
import { oversizedSchema } from '../../src/mcp/mcp-tool-limits.js';
import { MAX_JSON_DEPTH } from '../../src/validation/json-depth.js';
import { deepSchemaStdioServer } from './support/mcp-configs.js';

/** A schema of objects nested `levels` deep, each holding the next as its property `a`. */
function nested(levels: number): JsonObject {
  let schema: JsonObject = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// A schema nested 5,000 deep is about 30 KB, under the size limit, yet deeper than
// JSON.stringify (and ajv, and the request's body) can go: making the tool threw, and every
// run that started the server ended at once with "Maximum call stack size exceeded".
// An output schema as deep failed each call of its tool when the client checked the answer,
// and the connection was taken for lost: the server was started again for every call.
describe('an MCP server listing tools whose input or output schema nests 5,000 deep', () => {
  it('leaves out the one whose input schema does, with a warning; the others are offered and called, the deep output schema checks nothing, and the run ends normally', async () => {
    const call = (name: string) => ({ toolCalls: [{ name, arguments: {} }] });
    f = await startFixture({ main: steps(call('mcp__deep__echo'), call('mcp__deep__deep_output'), call('mcp__deep__deep_output'), { text: 'done' }) });
    const engine = f.engine({ mcpServers: { deep: deepSchemaStdioServer() } });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    const offered = turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__deep__'));
    expect(offered).toEqual(['mcp__deep__deep_output', 'mcp__deep__echo']);
    const skipped = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    expect(skipped).toEqual([expect.stringMatching(/MCP server "deep" offers mcp__deep__deep with an input schema nested more than \d+ deep .*; it is left out/)]);
    expect(own(events, 'ToolCallEnd').map((e) => e.text)).toEqual(['echo ran', 'deep_output ran', 'deep_output ran']);
  }, 60_000);
});

describe('the depth limit of an MCP schema', () => {
  it('lets a schema just within it through, and names one beyond it, without recursing', () => {
    // Each level of `nested` is two of JSON (the schema, its properties).
    expect(oversizedSchema(nested(MAX_JSON_DEPTH / 2 - 1))).toBeUndefined();
    expect(oversizedSchema(nested(MAX_JSON_DEPTH / 2 + 1))).toMatch(/nested more than 100 deep/);
    expect(oversizedSchema(nested(100_000))).toMatch(/nested more than 100 deep/);
  });

  it('an output schema beyond it checks nothing: the answer is taken as it is, not a throw', () => {
    expect(mcpOutputValidator.getValidator(nested(5_000))({})).toEqual({ valid: true, data: {}, errorMessage: undefined });
  });
});
