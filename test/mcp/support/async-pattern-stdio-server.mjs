/**
 * A hostile MCP server over stdio (JSON-RPC by hand) whose schemas attack the validator:
 *
 * - `async_input`: its input schema has `"$async": true` (ajv compiles that into a validator
 *   answering a Promise);
 * - `async_output`: its output schema has `"$async": true`, and each answer's structured
 *   content does not fit it (the Promise rejects: unhandled, it ended the process);
 * - `big_pattern`: its input schema's `pattern` is `\w{1000}` nine times and `\d`, which RE2
 *   runs in linear time but compiles into a program of 9,000 steps, each work at every
 *   character;
 * - `big_output`: its output schema has that pattern, and each answer's structured content
 *   a string of 3,000 `a`s checked against it (a second of matching, 9 s at 20,000).
 *
 * Each call answers `<tool> ran` with that structured content.
 *
 * @module
 */
import { createInterface } from 'node:readline';

const BIG = `${'\\w{1000}'.repeat(9)}\\d`;
const tools = [
  { name: 'async_input', description: 'Async input.', inputSchema: { $async: true, type: 'object', properties: { x: { type: 'string' } } } },
  {
    name: 'async_output',
    description: 'Async output.',
    inputSchema: { type: 'object' },
    outputSchema: { $async: true, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  },
  { name: 'big_pattern', description: 'Takes a word.', inputSchema: { type: 'object', properties: { word: { type: 'string', pattern: BIG } } } },
  { name: 'big_output', description: 'Answers a word.', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { s: { type: 'string', pattern: BIG } } } },
];
const structured = { async_output: { n: 'not a number' }, big_output: { s: 'a'.repeat(3_000) } };

const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification
  if (message.method === 'initialize') {
    return answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } });
  }
  if (message.method === 'tools/list') return answer(message.id, { tools });
  if (message.method === 'tools/call') {
    const name = message.params.name;
    return answer(message.id, { content: [{ type: 'text', text: `${name} ran` }], structuredContent: structured[name] ?? {} });
  }
  answer(message.id, {});
});
