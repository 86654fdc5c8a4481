import { describe, expect, it } from 'vitest';
import { MCP_MAX_PATH_ARGUMENTS } from '../../src/mcp/mcp-path-args.js';
import { collect, own } from '../support/collect-events.js';
import { steps } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';

// A stdio server whose one tool, `echo`, takes anything and answers how many paths it got.
const SERVER = `
import { createInterface } from 'node:readline';
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } });
  if (m.method === 'tools/list') return answer(m.id, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
  if (m.method === 'tools/call') return answer(m.id, { content: [{ type: 'text', text: 'got ' + m.params.arguments.paths.length }] });
  answer(m.id, {});
});
`;

const startFixture = delegationFixturePerTest();
const call = (paths: string[]) => ({ toolCalls: [{ name: 'mcp__h__echo', arguments: { paths } }], chunkSize: 1_000_000 });
const paths = (n: number, last = `f${n - 1}`): string[] => [...Array.from({ length: n - 1 }, (_, i) => `d${i % 50}/../f${i}`), last];

// Every path argument of a call was resolved on disk at once: a call of 100,000 took 71 s
// and held the event loop for 15.7 s, every run of the engine waiting.
describe('an MCP call with many path arguments', () => {
  it(`is judged path by path up to ${MCP_MAX_PATH_ARGUMENTS}; one with more is refused, saying to split it`, async () => {
    const n = MCP_MAX_PATH_ARGUMENTS;
    const f = await startFixture({ main: steps(call(paths(n)), call(paths(n, 'd1/../secret/key')), call(paths(n + 1)), { text: 'done' }) });
    const engine = f.engine({
      mcpServers: { h: { command: process.execPath, args: ['--input-type=module', '-e', SERVER] } },
      permissionRules: [{ tool: 'mcp__h__*', pattern: 'secret/**', action: 'deny' }],
    });
    const events = await collect(engine.stream('go'));
    await engine.close();
    expect(own(events, 'ToolCallEnd').map((e) => e.text)).toEqual([
      'got 1000',
      // The last of the thousand is judged too.
      expect.stringMatching(/^ERROR: Permission denied: .*secret/),
      'ERROR: The mcp__h__echo tool failed: it has more than 1000 path arguments, and at most 1000 of one call are checked against the permission rules; split it into calls of at most 1000 paths each',
    ]);
  });
});
