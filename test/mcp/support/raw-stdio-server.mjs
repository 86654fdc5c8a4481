/**
 * A hostile MCP server over stdio that writes its JSON-RPC by hand, as no SDK server would.
 * `MCP_RAW_MODE` picks what it attacks:
 *
 * - `deep` (the default): its `tools/list` holds `deep`, whose input schema nests
 *   `MCP_DEEP_LEVELS` objects (default 5,000: about 30 KB, under the 64 KiB schema limit,
 *   and deeper than `JSON.stringify` can go), `deep_output`, whose output schema nests as
 *   deep (each answer carries an empty structured content, which the client checks against
 *   it), and `echo`, a plain tool;
 * - `slow-pages`: it lists one tool a page, each page `MCP_PAGE_DELAY_MS` late (default
 *   400), for ever, each within any per-request timeout longer than that;
 * - `refs`: its `tools/list` holds tools whose input schema has a `$ref` no call can be
 *   checked against (`self_ref`: the schema is its own `$ref`; `defs_loop`: two `$defs`
 *   naming each other through `allOf` and `anyOf`; `remote_ref`: a URL), `tree`, whose local
 *   `$ref`s recur through an item (a plan of steps of steps; its title at least 1 character),
 *   `loop_output`, whose output schema is its own `$ref`, and `echo`;
 * - `ping-flood`: once it has listed its tool (`echo`), it stops reading its stdin and sends
 *   `ping` requests for ever, 300 a second (under the client's bound on a server's requests
 *   a second, so that what ends it is the answers piling up) with ids of some 210
 *   characters (so that the answers soon fill the pipe): every answer the client owes it waits in the client's memory.
 *
 * Each call answers `<tool> ran`.
 *
 * @module
 */
import { createInterface } from 'node:readline';

const mode = process.env['MCP_RAW_MODE'] ?? 'deep';
const levels = Number(process.env['MCP_DEEP_LEVELS'] ?? 5_000);
const pageDelayMs = Number(process.env['MCP_PAGE_DELAY_MS'] ?? 400);

// Built as text: the SDK's (and JSON.stringify's) recursion is what this server attacks.
const deepSchema = `{"type":"object","properties":{"nested":${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}}}`;
const deepTools = `[${[
  `{"name":"deep","description":"Nests deep.","inputSchema":${deepSchema}}`,
  `{"name":"deep_output","description":"Answers deep.","inputSchema":{"type":"object"},"outputSchema":${deepSchema}}`,
  '{"name":"echo","description":"Answers.","inputSchema":{"type":"object"}}',
].join(',')}]`;

const refsTools = JSON.stringify([
  { name: 'self_ref', description: 'Loops.', inputSchema: { type: 'object', properties: { x: { type: 'string' } }, $ref: '#' } },
  {
    name: 'defs_loop',
    description: 'Loops through its definitions.',
    inputSchema: { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } },
  },
  { name: 'remote_ref', description: 'Points away.', inputSchema: { type: 'object', properties: { x: { $ref: 'http://127.0.0.1:9/schema.json' } } } },
  {
    name: 'tree',
    description: 'Takes a plan.',
    inputSchema: {
      type: 'object',
      $defs: { title: { type: 'string', minLength: 1 }, step: { type: 'object', properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } }, required: ['title'] } },
      properties: { title: { $ref: '#/$defs/title' }, steps: { type: 'array', items: { $ref: '#/$defs/step' } } },
      required: ['title'],
    },
  },
  { name: 'loop_output', description: 'Answers.', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { y: { type: 'string' } }, $ref: '#' } },
  { name: 'echo', description: 'Answers.', inputSchema: { type: 'object' } },
]);

const answer = (id, result) => process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}\n`);

/** Pings, 300 a write, a write a second. */
function flood() {
  let next = 0;
  const pad = 'x'.repeat(200); // under the client's bound on an id (512 characters)
  const pings = () => Array.from({ length: 300 }, () => `{"jsonrpc":"2.0","id":"ping_${next++}_${pad}","method":"ping"}\n`).join('');
  const pump = () => void process.stdout.write(pings());
  pump();
  setInterval(pump, 1_000);
}

/** One page of tools: all of `deep`'s, or `slow-pages`' next, late, with a cursor to the one after; `ping-flood`'s, then the flood. */
function listTools(id, cursor) {
  if (mode === 'ping-flood') {
    answer(id, '{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}');
    lines.close();
    process.stdin.pause();
    return void setTimeout(flood, 10);
  }
  if (mode === 'refs') return answer(id, `{"tools":${refsTools}}`);
  if (mode !== 'slow-pages') return answer(id, `{"tools":${deepTools}}`);
  const page = Number(cursor ?? 0);
  setTimeout(() => answer(id, `{"tools":[{"name":"tool_${page}","inputSchema":{"type":"object"}}],"nextCursor":"${page + 1}"}`), pageDelayMs);
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification
  if (message.method === 'initialize') {
    const version = JSON.stringify(message.params.protocolVersion);
    return answer(message.id, `{"protocolVersion":${version},"capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1.0.0"}}`);
  }
  if (message.method === 'tools/list') return listTools(message.id, message.params?.cursor);
  if (message.method === 'tools/call') {
    const text = JSON.stringify(`${message.params.name} ran`);
    return answer(message.id, `{"content":[{"type":"text","text":${text}}],"structuredContent":{}}`);
  }
  answer(message.id, '{}');
});
