import { afterEach, describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { answeredHandshake, mcpHttpServer, replyResult, type McpHttpServer, type McpMessage } from './support/mcp-http-server.js';

const startFixture = delegationFixturePerTest();
let f: DelegationFixture;
let server: McpHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T = '#/$defs/t';
/** `x`: an array of arrays, each level recurring through both `items` and `contains`. */
const itemsAndContains = { type: 'object', $defs: { t: { type: 'array', items: { $ref: T }, contains: { $ref: T } } }, properties: { x: { $ref: T } } };
/** `x`: an `anyOf` of four variants, each recurring through `items`. */
const fourVariants = {
  type: 'object',
  $defs: { t: { anyOf: [...Array.from({ length: 3 }, () => ({ allOf: [{ type: 'array', items: { $ref: T } }, { maxItems: 0 }] })), { type: 'array', items: { $ref: T } }] } },
  properties: { x: { $ref: T } },
};
/** `x`: a tree of nodes, the recursion a tool's schema normally has. */
const tree = { type: 'object', $defs: { t: { type: 'object', properties: { name: { type: 'string', minLength: 1 }, kids: { type: 'array', items: { $ref: T } } } } }, properties: { x: { $ref: T } } };
const TOOLS = [
  { name: 'nest_in', description: 'Takes nested arrays.', inputSchema: fourVariants },
  { name: 'nest_out', description: 'Answers nested arrays.', inputSchema: { type: 'object' }, outputSchema: itemsAndContains },
  { name: 'tree_in', description: 'Takes a tree.', inputSchema: tree },
];

/** An MCP server over HTTP listing {@link TOOLS}: each call answers `<tool> ran`, its structured content an `x` that fits none of the schemas. */
function recursiveServer(): Promise<McpHttpServer> {
  return mcpHttpServer((req, res, body) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as McpMessage & { params?: { name?: string } };
    if (answeredHandshake(res, message, 'rec')) return;
    if (message.method === 'tools/list') return replyResult(res, message, { tools: TOOLS });
    replyResult(res, message, { content: [{ type: 'text', text: `${message.params?.name} ran` }], structuredContent: { x: 'not an array' } });
  });
}

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });

// A server's schemas whose recursion reaches one part of a value by two paths: checking the
// model's arguments (4 variants, 13 levels) held the event loop 7 s; checking an answer (items
// and contains, 22 levels) exhausted the heap and ended the process.
describe('an MCP server listing tools whose schemas recur twice into the same part of a value', () => {
  it('leaves out the tool with such an input schema, naming where; checks nothing against such an output schema; a tree schema still checks', async () => {
    server = await recursiveServer();
    f = await startFixture({ main: steps(call('mcp__rec__nest_out'), call('mcp__rec__tree_in', { x: { name: '' } }), call('mcp__rec__tree_in', { x: { name: 'a', kids: [{ name: 'b' }] } }), { text: 'done' }) });
    const engine = f.engine({ mcpServers: { rec: { url: server.url } } });
    const events = await collect(engine.stream('go'));
    await engine.close();
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(turnOf(f.server.requests[0]!).toolNames.filter((n) => n.startsWith('mcp__rec__')).sort()).toEqual(['mcp__rec__nest_out', 'mcp__rec__tree_in']);
    const skipped = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped').map((w) => w.message);
    expect(skipped).toEqual([
      expect.stringMatching(
        /^MCP server "rec" offers mcp__rec__nest_in with an input schema that cannot be checked against: its recursive subschemas at \/\$defs\/t\/anyOf\/0\/allOf\/0\/items and \/\$defs\/t\/anyOf\/1\/allOf\/0\/items apply to the same part of a value, .*; it is left out\.$/,
      ),
    ]);
    const ends = own(events, 'ToolCallEnd').map((e) => e.text);
    // The answer does not fit its output schema, and is taken as it is: the schema was never run.
    expect(ends[0]).toBe('nest_out ran');
    expect(ends[1]).toMatch(/^ERROR: .*"x\.name" must NOT have fewer than 1 characters/);
    expect(ends[2]).toBe('tree_in ran');
  }, 60_000);
});
