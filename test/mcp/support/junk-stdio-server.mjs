/**
 * A broken or hostile MCP server over stdio, its JSON-RPC written by hand. `MCP_JUNK_MODE`
 * picks what it does:
 *
 * - `stray`: once it has listed `echo`, writes answers to ids the client never sent, as
 *   fast as the pipe takes them, for ever;
 * - `garbage`: once it has listed `echo`, writes lines that are not JSON, as fast, for ever;
 * - `twice`: answers each call twice, and writes one line of noise after each;
 * - `long-line`: answers each call with a line of 11 MiB (over the client's 10 MiB bound);
 * - `init-error`: answers `initialize` with an error whose message is 5 MB;
 * - `invalid`: lists 50,000 tools whose names are numbers (the SDK refuses the list);
 * - `many`: lists 200,000 tools in one page (`t0`, `t1`...; under 10 MiB);
 * - `chatty`: logs 1,500 lines to stdout as it starts, before it answers `initialize`.
 *
 * Each call answers `<tool> ran`.
 *
 * @module
 */
import { createInterface } from 'node:readline';

const mode = process.env['MCP_JUNK_MODE'];
const write = (text) => process.stdout.write(text);
const answer = (id, result) => write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}\n`);

/** Writes `chunk()` again each time the pipe has room, for ever. */
function pour(chunk) {
  const more = () => {
    while (write(chunk()));
    process.stdout.once('drain', more);
  };
  setImmediate(more);
}

let stray = 1_000_000;
const strays = () => Array.from({ length: 500 }, () => `{"jsonrpc":"2.0","id":${stray++},"result":{"content":[]}}\n`).join('');
const noise = 'this is no JSON-RPC\n'.repeat(500);

function listTools(id) {
  if (mode === 'invalid') return answer(id, `{"tools":[${Array.from({ length: 50_000 }, (_, i) => `{"name":${i}}`).join(',')}]}`);
  if (mode === 'many') return answer(id, `{"tools":[${Array.from({ length: 200_000 }, (_, i) => `{"name":"t${i}","inputSchema":{"type":"object"}}`).join(',')}]}`);
  answer(id, '{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}');
  if (mode === 'stray') pour(strays);
  if (mode === 'garbage') pour(() => noise);
}

if (mode === 'chatty') write('INFO starting up, loading what it serves\n'.repeat(1_500));

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification
  if (message.method === 'initialize') {
    if (mode === 'init-error') return write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `no${'o'.repeat(5_000_000)}pe` } })}\n`);
    const version = JSON.stringify(message.params.protocolVersion);
    return answer(message.id, `{"protocolVersion":${version},"capabilities":{"tools":{}},"serverInfo":{"name":"junk","version":"1.0.0"}}`);
  }
  if (message.method === 'tools/list') return listTools(message.id);
  if (message.method === 'tools/call') {
    if (mode === 'long-line') return answer(message.id, `{"content":[{"type":"text","text":"${'y'.repeat(11 * 1024 * 1024)}"}]}`);
    const result = `{"content":[{"type":"text","text":${JSON.stringify(`${message.params.name} ran`)}}]}`;
    answer(message.id, result);
    if (mode === 'twice') {
      answer(message.id, result);
      write('noise after the answer\n');
    }
    return;
  }
  answer(message.id, '{}');
});
