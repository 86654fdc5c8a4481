/**
 * An MCP server over stdio whose `tools/list` answer is malformed, written by hand as no SDK
 * server would send it. `MCP_MALFORMED_MODE` picks how:
 *
 * - `mixed` (the default): among well-formed tools (`echo`, `last`, and `no_structured`,
 *   whose output schema its answers break by holding no structured content) it lists
 *   `bad_schema` (an input schema of type `string`), one whose name is the number 42, one
 *   with no name, a string where a tool belongs, and one whose long name holds control
 *   characters and whose input schema is a list;
 * - `many`: 10,000 tools, `tool_<i>` for an even `i` and, for an odd one, `broken_<i>`, whose
 *   input schema is the string `nope`;
 * - `not-array`: its `tools` is the string `none`;
 * - `second-page`: a first page with `echo`, then a page whose `tools` is an object.
 *
 * Each call answers `<tool> ran`.
 *
 * @module
 */
import { createInterface } from 'node:readline';

const mode = process.env['MCP_MALFORMED_MODE'] ?? 'mixed';
const object = { type: 'object' };

/** The tools of the listing's page after `cursor`, and the cursor of the next. */
function page(cursor) {
  if (mode === 'not-array') return { tools: 'none' };
  if (mode === 'second-page') return cursor === undefined ? { tools: [{ name: 'echo', inputSchema: object }], nextCursor: '2' } : { tools: { echo: 1 } };
  if (mode === 'many') {
    return { tools: Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? { name: `tool_${i}`, inputSchema: object } : { name: `broken_${i}`, inputSchema: 'nope' })) };
  }
  const tools = [
    { name: 'echo', description: 'Answers.', inputSchema: object },
    { name: 'bad_schema', inputSchema: { type: 'string' } },
    { name: 42, inputSchema: object },
    { description: 'No name.', inputSchema: object },
    'a string',
    { name: `evil\u001b[31m\n${'x'.repeat(5_000)}`, inputSchema: [] },
    { name: 'no_structured', inputSchema: object, outputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    { name: 'last', inputSchema: object },
  ];
  return { tools };
}

const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification
  if (message.method === 'initialize') {
    return answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'malformed', version: '1.0.0' } });
  }
  if (message.method === 'tools/list') return answer(message.id, page(message.params?.cursor));
  if (message.method === 'tools/call') return answer(message.id, { content: [{ type: 'text', text: `${message.params.name} ran` }] });
  answer(message.id, {});
});
