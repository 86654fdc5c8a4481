import { describe, expect, it } from 'vitest';
import { mcpResultText } from '../../src/mcp/mcp-result-text.js';
import { alive } from './support/mcp-configs.js';
import { connectionPerTest } from './support/connection-per-test.js';

// A stdio server that marks its pid, answers its start and its listing, and at the call of
// `close` closes its stdout and runs on (its stdin still read), never answering again; `echo`
// answers with its pid.
const SERVER = `
import { appendFileSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync(process.env.MCP_TEST_MARKS, 'pid ' + process.pid + '\\n');
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } } });
  if (m.method === 'tools/list') return send({ id: m.id, result: { tools: [{ name: 'close', inputSchema: { type: 'object' } }, { name: 'echo', inputSchema: { type: 'object' } }] } });
  if (m.method === 'tools/call' && m.params.name === 'close') return closeSync(1);
  if (m.method === 'tools/call') return send({ id: m.id, result: { content: [{ type: 'text', text: 'pid ' + process.pid }] } });
  send({ id: m.id, result: {} });
});
// Runs on whatever becomes of its stdin.
setInterval(() => {}, 1 << 30);
`;

const mcp = connectionPerTest();

// Only its exit lost a server: one that closed its stdout stayed "running", each later call
// waited out its tool timeout (10 minutes by default), and it was never started again.
describe('a stdio MCP server that closes its stdout and runs on', () => {
  it('is lost, as on exit: the call in flight fails, its process is ended, and the next run starts it again', async () => {
    const marks = await mcp.marks();
    const c = await mcp.connect('h', { command: process.execPath, args: ['--input-type=module', '-e', SERVER], env: marks.env });
    expect(c.problem).toBeUndefined();
    const pid = Number((await marks.waitFor(/^pid /)).slice(4));
    // Bounded far beyond the loss (about 1 s): without it, the call waited out this signal.
    const call = c.call('close', {}, AbortSignal.timeout(15_000));
    // Said as what happened, not "the server closed the connection": a user can mend that.
    const reason = 'stopped: it closed its standard output (where its answers go) but kept running, so rxharness closed the connection';
    await expect(call).rejects.toThrow(`MCP server "h" failed during the call (${reason}); it is started again when the next run starts`);
    expect(c.running).toBe(false);
    expect(c.problem).toBe(reason);
    // Ended before the connection is closed: the loss ended it.
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    await c.ensure();
    expect(c.running).toBe(true);
    const echo = String(mcpResultText(await c.call('echo', {}, AbortSignal.timeout(15_000))));
    expect(echo).toMatch(/^pid \d+$/);
    expect(echo).not.toBe(`pid ${pid}`);
  });
});
