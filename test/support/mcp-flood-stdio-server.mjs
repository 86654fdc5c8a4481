/**
 * A hostile MCP server over stdio that floods its client, writing its JSON-RPC by hand (no
 * SDK on its side to slow it down or check what it sends). It advertises changing tools,
 * lists `flood`, `hold` and `echo`, and appends `listed` to the file `MCP_FLOOD_MARKS` (when
 * set) at each `tools/list`. Its tools:
 *
 * - `flood` `{ n }`: sends `n` notifications, as fast as its stdout takes them, going round
 *   `notifications/message`, `notifications/progress`, `notifications/resources/updated` and
 *   `notifications/tools/list_changed`, then answers `sent <n>`; it pays no heed to its stdin
 *   closing (a client has to end it);
 * - `hold` `{ n }`: stops reading its stdin, sends `n` pings with 400-character ids (more
 *   than a pipe holds, fewer answers than the client may keep waiting), then one
 *   `notifications/tools/list_changed` to say they are out; once the file `MCP_FLOOD_GO`
 *   exists it reads again and, having read the `n` answers, answers
 *   `took <k> answers of <n>, in order` (or `..., out of order`);
 * - `echo`: answers `echo ran`.
 *
 * @module
 */
import { appendFileSync, existsSync } from 'node:fs';
import { readStdinLines } from './stdin-lines.mjs';

const marks = process.env['MCP_FLOOD_MARKS'];
const go = process.env['MCP_FLOOD_GO'];

const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const answer = (id, result) => process.stdout.write(line({ id, result }));
const text = (id, words) => answer(id, { content: [{ type: 'text', text: words }] });

const KINDS = [
  (i) => ({ method: 'notifications/message', params: { level: 'info', data: `line ${i}` } }),
  (i) => ({ method: 'notifications/progress', params: { progressToken: i, progress: i } }),
  (i) => ({ method: 'notifications/resources/updated', params: { uri: `file:///r/${i}` } }),
  () => ({ method: 'notifications/tools/list_changed' }),
];

/** Writes `count` lines made by `make`, a thousand a write, waiting whenever stdout is full. */
async function pour(count, make) {
  for (let from = 0; from < count; from += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, count - from) }, (_, k) => line(make(from + k))).join('');
    if (!process.stdout.write(batch)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

const tools = [
  { name: 'flood', description: 'Floods notifications.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
  { name: 'hold', description: 'Pings without reading.', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
  { name: 'echo', description: 'Answers.', inputSchema: { type: 'object' } },
];

/** Waiting for `n` ping answers: their ids as they came, and the call to answer then. */
let held;
const pingId = (i) => `hold_${i}_${'x'.repeat(400)}`;

async function hold(id, n) {
  held = { id, n, ids: [] };
  process.stdin.pause();
  await pour(n, (i) => ({ id: pingId(i), method: 'ping' }));
  process.stdout.write(line({ method: 'notifications/tools/list_changed' }));
  while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 10));
  process.stdin.resume();
}

function took(message) {
  held.ids.push(message.id);
  if (held.ids.length < held.n) return;
  const inOrder = held.ids.every((id, i) => id === pingId(i));
  text(held.id, `took ${held.ids.length} answers of ${held.n}, ${inOrder ? 'in order' : 'out of order'}`);
  held = undefined;
}

function onMessage(message) {
  if (message.method === undefined) return held && typeof message.id === 'string' && message.id.startsWith('hold_') ? took(message) : undefined;
  if (message.id === undefined) return; // a notification
  if (message.method === 'initialize') {
    const protocolVersion = message.params.protocolVersion;
    return answer(message.id, { protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'flood', version: '1.0.0' } });
  }
  if (message.method === 'tools/list') {
    if (marks) appendFileSync(marks, 'listed\n');
    return answer(message.id, { tools });
  }
  if (message.method !== 'tools/call') return answer(message.id, {});
  const { name, arguments: args } = message.params;
  const n = Number(args?.n ?? 0);
  if (name === 'flood') return void pour(n, (i) => KINDS[i % KINDS.length](i)).then(() => text(message.id, `sent ${n}`));
  if (name === 'hold') return void hold(message.id, n);
  text(message.id, `${name} ran`);
}

// Lines by hand rather than readline: pausing stdin (hold) must stop the reading at once.
readStdinLines(onMessage);
