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
 * - `drip`: once listed, writes a line of junk (no JSON) of 1 MiB, then 8 bytes at a time,
 *   300 times, each a millisecond after the one before, then ends it; a call is answered
 *   only once that line has ended;
 * - `big-junk`: once listed, writes lines of junk of 9.9 MiB (under the 10 MiB bound), as
 *   fast as the pipe takes them, for ever;
 * - `big-ping`: once listed, stops reading its stdin and sends 3 `ping`s whose ids are 5 MiB;
 * - `deaf`: once listed, stops reading its stdin.
 *
 * With `MCP_JUNK_PID_FILE`, it writes its pid there as it starts. With `MCP_JUNK_STUBBORN=1`
 * it ignores SIGTERM, its stdin ending and failed writes (EPIPE), and stays until killed.
 *
 * Each call answers `<tool> ran`.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.env['MCP_JUNK_MODE'];
if (process.env['MCP_JUNK_PID_FILE']) writeFileSync(process.env['MCP_JUNK_PID_FILE'], String(process.pid));
const write = (text) => process.stdout.write(text);
if (process.env['MCP_JUNK_STUBBORN'] === '1') {
  process.on('SIGTERM', () => undefined);
  process.stdout.on('error', () => undefined);
  setInterval(() => undefined, 60_000);
}
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

let dripped = false;
const afterDrip = [];

/** 1 MiB, then 8 bytes a millisecond, 300 times, then the line's end. */
function drip() {
  let left = 300;
  const more = () => {
    if (left-- > 0) return void process.stdout.write('xxxxxxxx', () => setTimeout(more, 1));
    process.stdout.write('\n', () => {
      dripped = true;
      for (const send of afterDrip.splice(0)) send();
    });
  };
  process.stdout.write(Buffer.alloc(1024 * 1024, 0x78), () => setTimeout(more, 1));
}

/** Stops reading stdin: what is sent to it fills the pipe, then waits in the client. */
function deafen() {
  lines.close();
  process.stdin.pause();
  // Alive still, with nothing else to do: it only reads no more.
  setInterval(() => undefined, 60_000);
}

function listTools(id) {
  if (mode === 'invalid') return answer(id, `{"tools":[${Array.from({ length: 50_000 }, (_, i) => `{"name":${i}}`).join(',')}]}`);
  if (mode === 'many') return answer(id, `{"tools":[${Array.from({ length: 200_000 }, (_, i) => `{"name":"t${i}","inputSchema":{"type":"object"}}`).join(',')}]}`);
  answer(id, '{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}');
  if (mode === 'stray') pour(strays);
  if (mode === 'garbage') pour(() => noise);
  if (mode === 'drip') setTimeout(drip, 10);
  if (mode === 'big-junk') {
    const line = Buffer.alloc(10 * 1024 * 1024 - 100 * 1024, 0x78);
    line[line.length - 1] = 0x0a;
    pour(() => line);
  }
  if (mode === 'deaf' || mode === 'big-ping') deafen();
  if (mode === 'big-ping') {
    const pad = 'x'.repeat(5 * 1024 * 1024);
    for (let n = 0; n < 3; n++) write(`{"jsonrpc":"2.0","id":"p${n}_${pad}","method":"ping"}\n`);
  }
}

if (mode === 'chatty') write('INFO starting up, loading what it serves\n'.repeat(1_500));

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
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
    if (mode === 'drip' && !dripped) return void afterDrip.push(() => answer(message.id, result));
    answer(message.id, result);
    if (mode === 'twice') {
      answer(message.id, result);
      write('noise after the answer\n');
    }
    return;
  }
  answer(message.id, '{}');
});
