import { describe, expect, it } from 'vitest';
import { malformedTools } from '../../src/mcp/mcp-malformed-tools.js';
import { collect, own } from '../support/collect-events.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { steps } from '../support/delegation-script.js';
import { hostileStdioServer } from './support/mcp-configs.js';

const startFixture = delegationFixturePerTest();
const controls = '\u0001\u001b\u0085\u202e'.repeat(5_000);

/** The quoted parts of `message` (JSON strings, escapes included) that start with `"twin_` or `"` + a control's escape. */
const quotedParts = (message: string): string[] => message.match(/"(?:twin_|\\u)(?:[^"\\]|\\.)*"/g) ?? [];

// A server's name or key was cut to 80 characters, then quoted: each control character then
// took six (`\u0001`), so a warning quoted up to 480 characters of it where 80 were meant.
describe('what an MCP server names, quoted in a warning', () => {
  it('a malformed tool\'s name and its keys: each quoted part at most 80 characters, escapes included, and one JSON string', () => {
    const bad = malformedTools('docs');
    bad.add({ name: controls, inputSchema: {} }, 1, [{ path: ['inputSchema', controls], message: 'Invalid input' }]);
    const [message] = bad.messages(1);
    const parts = quotedParts(message!);
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(80);
      expect(JSON.parse(part)).toMatch(/^\u0001[\u0001\u001b\u0085\u202e]* \[\.\.\. \d+ characters cut \.\.\.\] [\u0001\u001b\u0085\u202e]*\u202e$/u);
    }
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });

  it('a tool listed twice (a real server over stdio): the quoted name at most 80 characters and one JSON string', async () => {
    const f = await startFixture({ main: steps({ text: 'done' }) });
    const engine = f.engine({ mcpServers: { twins: hostileStdioServer({ twins: 'controls' }) } });
    const events = await collect(engine.stream('go'));
    const twice = own(events, 'Warning').filter((w) => w.code === 'mcp-tool-skipped' && w.message.includes('two tools named'));
    expect(twice).toHaveLength(1);
    const parts = quotedParts(twice[0]!.message);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.length).toBeLessThanOrEqual(80);
    expect(JSON.parse(parts[0]!)).toMatch(/^twin_\u0001+ \[\.\.\. \d+ characters cut \.\.\.\] \u0001+$/);
    expect(twice[0]!.message).toMatch(/ is left out\.$/);
  }, 60_000);
});
