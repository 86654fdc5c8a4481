import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { collect, own } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { makeWorkspace } from '../support/tool-context.js';

// A stdio server listing a tool whose schema ajv refuses (a type JSON schema has not), one
// whose bad property's name is 5,000 characters of quotes and line breaks, one whose is 5,000
// controls (each escapes to six characters, \u0001), and a sound one.
// Each call answers `<name> got <arguments as JSON>`.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const hostile = '"\\n'.repeat(2_500);
const muted = '\\u0001'.repeat(5_000);
const tools = [
  { name: 'bad', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
  { name: 'loud', inputSchema: { type: 'object', properties: { [hostile]: { type: 'nope' } } } },
  { name: 'muted', inputSchema: { type: 'object', properties: { [muted]: { type: 'nope' } } } },
  { name: 'good', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
];
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
  if (m.method === 'tools/list') return send({ id: m.id, result: { tools } });
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: m.params.name + ' got ' + JSON.stringify(m.params.arguments) }] } });
  send({ id: m.id, result: {} });
});
`;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** What a warning quotes of ajv's words, between "(ajv: " and "); its calls". */
function ajvWords(message: string): string {
  return message.slice(message.indexOf('(ajv: ') + 6, message.indexOf('); its calls'));
}

const BAD =
  'MCP server "s": the input schema of mcp__s__bad is not a valid JSON schema (ajv: "schema/properties/a/type must be equal to one of the allowed values, ' +
  'schema/properties/a/type must be array, schema/properties/a/type must match a schema in anyOf"); its calls are checked to be an object only, so the server\'s own check is all there is.';

// Kept without a word, an MCP tool whose schema ajv refuses was found only at its first call.
describe('an MCP server listing a tool whose input schema ajv refuses', () => {
  it('is kept, and every run is warned once per such tool, in bounded, quoted words', async () => {
    const model = await FakeOpenAIServer.start({
      replies: [{ toolCalls: [{ name: 'mcp__s__bad', arguments: { a: 1 } }] }, { text: 'one' }, { text: 'two' }],
    });
    closing.push(() => model.close());
    const ws = await makeWorkspace();
    const home = await makeWorkspace('rxharness-home-');
    closing.push(() => ws.cleanup(), () => home.cleanup());
    const engine = new HarnessEngine({ model: openAIModelFor(model), workspace: ws.dir, homeDir: home.dir, mcpServers: { s: { command: process.execPath, args: ['--input-type=module', '-e', SERVER] } } });
    closing.push(() => engine.close());
    const first = await collect(engine.stream('first'));
    // Kept: offered and called; the server's own check is all there is (its `a` is no string).
    expect(own(first, 'ToolCallEnd').map((e) => e.error ?? e.text)).toEqual(['bad got {"a":1}']);
    for (const run of [first, await collect(engine.stream('second'))]) {
      expect(own(run, 'RunEnd')).toHaveLength(1);
      const invalid = own(run, 'Warning').filter((w) => w.code === 'mcp-schema-invalid');
      expect(invalid.map((w) => w.message.slice(0, 60))).toEqual([BAD.slice(0, 60), 'MCP server "s": the input schema of mcp__s__loud is not a va', 'MCP server "s": the input schema of mcp__s__muted is not a v']);
      expect(invalid[0]!.message).toBe(BAD);
      // The server's 5,000 characters of quotes and line breaks: cut, and quoted as JSON.
      const loud = invalid[1]!.message;
      expect(loud.length).toBeLessThan(1_000);
      expect(loud).not.toContain('\n');
      expect(loud).toMatch(/^MCP server "s": the input schema of mcp__s__loud is not a valid JSON schema \(ajv: "schema\/properties\/(\\"\\n)+.*"\); its calls are checked/);
      // Controls escape to six characters each: the quoted words are bounded once escaped, not
      // before (cut at 300 then quoted, they came out some 1,800 characters long).
      const words = ajvWords(invalid[2]!.message);
      expect(words.length).toBeLessThanOrEqual(300);
      expect(words).toMatch(/^"schema\/properties\/(\\u0001)+ \[\.\.\. \d+ characters cut \.\.\.\] (\\u0001)+.*"$/);
      expect(JSON.parse(words)).toContain('characters cut');
    }
  }, 60_000);
});
