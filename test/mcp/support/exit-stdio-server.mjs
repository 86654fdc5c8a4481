/**
 * An MCP server over stdio for how a close ends it, writing its JSON-RPC by hand. It answers
 * the handshake and lists no tools. `MCP_EXIT_MODE` picks how it takes being closed:
 *
 * - `polite` (the default): it exits (code 0) once its stdin ends, as a server should;
 * - `stubborn`: it ignores its stdin ending and SIGTERM, and stays until it is killed.
 *
 * With `MCP_TEST_MARKS=<file>` it appends there `stdin ended` when its stdin ends, `sigterm`
 * when it is sent SIGTERM, and `exit <code>` as it exits by itself (a process killed with
 * SIGKILL, or by a SIGTERM it does not handle, never writes that line); with
 * `MCP_EXIT_MARK_PID=1` also, first, `pid <its pid>` (a wrapper's child is not the process
 * the client spawned).
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { readStdinLines } from '../../support/stdin-lines.mjs';

const stubborn = process.env['MCP_EXIT_MODE'] === 'stubborn';
const marks = process.env['MCP_TEST_MARKS'];
const mark = (words) => (marks ? appendFileSync(marks, `${words}\n`) : undefined);
if (process.env['MCP_EXIT_MARK_PID'] === '1') mark(`pid ${process.pid}`);
const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

readStdinLines((message) => {
  if (message.id === undefined || message.method === undefined) return; // a notification or an answer
  if (message.method === 'initialize') {
    const protocolVersion = message.params.protocolVersion;
    return answer(message.id, { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'exit', version: '1.0.0' } });
  }
  answer(message.id, message.method === 'tools/list' ? { tools: [] } : {});
});
process.stdout.on('error', () => undefined);
process.on('exit', (code) => mark(`exit ${code}`));
process.stdin.on('end', () => {
  mark('stdin ended');
  if (!stubborn) process.exit(0);
});
if (stubborn) {
  process.on('SIGTERM', () => mark('sigterm'));
  // Its stdin has ended, so nothing else holds it: this does, until it is killed.
  setInterval(() => undefined, 60_000);
}
