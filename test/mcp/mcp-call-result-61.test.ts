import { describe, expect, it } from 'vitest';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { mcpResultText } from '../../src/mcp/mcp-result-text.js';
import { connectionPerTest } from './support/connection-per-test.js';

// A stdio server written by hand, as no SDK server would answer: `bad` answers with what
// `MODE` says, `echo` counts its calls (and names its process, so a restart would show).
const SERVER = `
import { createInterface } from 'node:readline';
const answers = {
  'not-list': { content: 'not a list' },
  'future': { content: [{ type: 'widget', data: 'x' }, { type: 'text', text: 'hello' }] },
  'bad-text': { content: [{ type: 'text', text: 5 }] },
  'no-type': { content: [{ text: 'x' }] },
  'bad-error': { content: [], isError: 'yes' },
};
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
let calls = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } });
  if (m.method === 'tools/list') return answer(m.id, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }, { name: 'bad', inputSchema: { type: 'object' } }] });
  if (m.method === 'tools/call' && m.params.name === 'bad') return answer(m.id, answers[m.params.arguments.mode]);
  if (m.method === 'tools/call') return answer(m.id, { content: [{ type: 'text', text: 'echo ' + ++calls + ' pid ' + process.pid }] });
  answer(m.id, {});
});
`;

const mcp = connectionPerTest();

const started = async (): Promise<McpConnection> => {
  const connection = await mcp.connect('h', { command: process.execPath, args: ['--input-type=module', '-e', SERVER] });
  expect(connection.problem).toBeUndefined();
  return connection;
};
const signal = (): AbortSignal => new AbortController().signal;

// The SDK's `callTool` refused such an answer with a schema error, which the connection took
// for a lost connection: the server was stopped for every run, later calls were told it "is
// not running", and the model read a raw zod dump.
describe('an MCP tool answer the SDK\'s schema refuses', () => {
  it.each([
    ['not-list', /^MCP server "h" answered, but its content is the string "not a list", where a list of content blocks belongs$/],
    ['bad-text', /^MCP server "h" answered, but its content block 1 \("text"\) is malformed: text: /],
    ['no-type', /^MCP server "h" answered, but its content block 1 is a mapping with no type, where a content block belongs$/],
    ['bad-error', /^MCP server "h" answered, but its result is malformed: isError: /],
  ])('(%s) fails that call only, saying what is wrong, and the server keeps running', async (mode, message) => {
    const c = await started();
    const first = mcpResultText(await c.call('echo', {}, signal()));
    await expect(c.call('bad', { mode }, signal())).rejects.toThrow(message);
    expect(c.running).toBe(true);
    const pid = /pid (\d+)/.exec(String(first))![1];
    expect(mcpResultText(await c.call('echo', {}, signal()))).toBe(`echo 2 pid ${pid}`);
  });

  it('holding a content block of a newer spec is read: the block is named, the rest shown', async () => {
    const c = await started();
    expect(mcpResultText(await c.call('bad', { mode: 'future' }, signal()))).toBe('[widget content, not shown]\nhello');
    expect(c.running).toBe(true);
    expect(mcpResultText(await c.call('echo', {}, signal()))).toMatch(/^echo 1 pid/);
  });
});
