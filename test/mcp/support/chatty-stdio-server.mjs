/**
 * An MCP server over stdio that talks more than it is asked to, writing its JSON-RPC by hand
 * (no SDK on its side to slow it down or check what it sends). It lists these tools:
 *
 * - `echo`: answers `echo ran`;
 * - `pings` `{ n }`: sends `n` pings at once and, once every one has had its answer,
 *   answers `<k> of <n> pings answered` (`k` the answers that carried a result);
 * - `slow` `{ count, everyMs }`: sends a `notifications/progress` every `everyMs` ms, `count`
 *   times (0: until the call is cancelled), then answers
 *   `slow ran, progress token: <none|given>`, whether the call carried a progress token;
 * - `storm`: sends pings as fast as its stdout takes them, for ever, while reading (and
 *   dropping) the answers; from then on it ignores its stdin ending and SIGTERM.
 *
 * With `MCP_CHATTY_SPEW=1`, once its stdin ends (a client closing the connection) it ignores
 * SIGTERM and writes notifications as fast as its stdout takes them, for ever. Otherwise it
 * exits when its stdin ends. With `MCP_CHATTY_MARKS=<file>` it appends `pid <pid>` there once
 * it reads its stdin, and `cancelled <request id>` when a call is cancelled.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { readStdinLines } from '../../support/stdin-lines.mjs';

const marks = process.env['MCP_CHATTY_MARKS'];
const mark = (words) => (marks ? appendFileSync(marks, `${words}\n`) : undefined);
const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const send = (message) => process.stdout.write(line(message));
const answer = (id, result) => send({ id, result });
const text = (id, words) => answer(id, { content: [{ type: 'text', text: words }] });

const object = (properties = {}) => ({ type: 'object', properties });
const tools = [
  { name: 'echo', description: 'Answers.', inputSchema: object() },
  { name: 'pings', description: 'Pings n times.', inputSchema: object({ n: { type: 'number' } }) },
  { name: 'slow', description: 'Reports progress, then answers.', inputSchema: object({ count: { type: 'number' }, everyMs: { type: 'number' } }) },
  { name: 'storm', description: 'Pings for ever.', inputSchema: object() },
];

let storming = false;
let nextPing = 0;
/** What waits for the answer to one of our pings, by its id. */
const waiting = new Map();
/** The progress timers of calls still running, by request id. */
const running = new Map();

/** Writes lines made by `make` as fast as stdout takes them, for ever (until stdout fails). */
function pour(make) {
  const batch = () => Array.from({ length: 500 }, make).join('');
  const pump = () => {
    while (process.stdout.write(batch()));
    process.stdout.once('drain', pump);
  };
  pump();
}

function ping() {
  const id = `ping_${nextPing++}`;
  send({ id, method: 'ping' });
  return new Promise((resolve) => waiting.set(id, resolve));
}

async function pings(id, n) {
  const answers = await Promise.all(Array.from({ length: n }, ping));
  const answered = answers.filter((result) => result !== undefined).length;
  text(id, `${answered} of ${n} pings answered`);
}

function slow(id, params) {
  const token = params._meta?.progressToken;
  const count = Number(params.arguments?.count ?? 0);
  let sent = 0;
  const timer = setInterval(() => {
    send({ method: 'notifications/progress', params: { progressToken: token ?? id, progress: ++sent } });
    if (count === 0 || sent < count) return;
    clearInterval(timer);
    running.delete(id);
    text(id, `slow ran, progress token: ${token === undefined ? 'none' : 'given'}`);
  }, Number(params.arguments?.everyMs ?? 50));
  running.set(id, timer);
}

function storm() {
  storming = true;
  process.on('SIGTERM', () => undefined);
  pour(() => line({ id: `storm_${nextPing++}`, method: 'ping' }));
}

function onMessage(message) {
  if (message.method === undefined) {
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    return resolve?.(message.result);
  }
  if (message.method === 'notifications/cancelled') {
    clearInterval(running.get(message.params.requestId));
    return mark(`cancelled ${message.params.requestId}`);
  }
  if (message.id === undefined) return; // another notification
  if (message.method === 'initialize') {
    const protocolVersion = message.params.protocolVersion;
    return answer(message.id, { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'chatty', version: '1.0.0' } });
  }
  if (message.method === 'tools/list') return answer(message.id, { tools });
  if (message.method !== 'tools/call') return answer(message.id, {});
  const name = message.params.name;
  if (name === 'pings') return void pings(message.id, Number(message.params.arguments?.n ?? 0));
  if (name === 'slow') return slow(message.id, message.params);
  if (name === 'storm') return storm();
  text(message.id, `${name} ran`);
}

function ended() {
  if (storming) return;
  if (process.env['MCP_CHATTY_SPEW'] !== '1') return process.exit(0);
  process.on('SIGTERM', () => undefined);
  let n = 0;
  pour(() => line({ method: 'notifications/message', params: { level: 'info', data: `spew ${n++}` } }));
}

// Node ends a process whose stdout write fails (EPIPE) with an uncaught error: this server
// means to keep going until it is killed, as a hostile one would.
process.stdout.on('error', () => undefined);
readStdinLines(onMessage);
process.stdin.on('end', ended);
mark(`pid ${process.pid}`);
