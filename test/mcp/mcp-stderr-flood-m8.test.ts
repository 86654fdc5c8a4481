import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stderrTail } from '../../src/mcp/mcp-stdio-stderr.js';
import { connectionPerTest } from './support/connection-per-test.js';

const SERVER = fileURLToPath(new URL('./support/m8-bulky-stdio-server.mjs', import.meta.url));
const mcp = connectionPerTest();
afterEach(() => {
  vi.useRealTimers();
});

// Each 64 KiB chunk was decoded whole and joined to the tail: a server writing stderr as fast
// as the pipe took it kept an idle engine 73% busy, for as long as it ran.
describe('a stdio MCP server writing stderr as fast as the pipe takes it', () => {
  it('has its connection closed past 50 MiB within 10 s, saying why; a call then fails naming the reason', async () => {
    // The clock stands still: however slow the machine, the flood falls within one window.
    vi.useFakeTimers({ toFake: ['Date'] });
    const c = await mcp.connect('loud', { command: process.execPath, args: [SERVER], env: { M8_MODE: 'stderr-flood' } });
    expect(c.tools.map((t) => t.name)).toEqual(['echo']);
    await expect.poll(() => c.running, { timeout: 30_000 }).toBe(false);
    expect(c.problem).toMatch(/^stopped: it wrote more than 50 MiB to stderr within 10 s, so rxharness closed the connection; its stderr ends with: e{1000}$/);
    await expect(c.call('echo', {}, new AbortController().signal)).rejects.toThrow(/MCP server "loud" is not running \(stopped: it wrote more than 50 MiB to stderr/);
  }, 60_000);
});

describe('the end of a stdio server\'s stderr', () => {
  it('is its last 1,000 characters, a character split between chunks read whole', () => {
    const floods: string[] = [];
    const stderr = stderrTail((why) => floods.push(why));
    stderr.take(Buffer.alloc(1 << 16, 'x'));
    const euro = Buffer.from('€');
    stderr.take(Buffer.concat([Buffer.from('boom '), euro.subarray(0, 1)]));
    stderr.take(Buffer.concat([euro.subarray(1), Buffer.from(' failed\n')]));
    // The last 1,000 characters, the line's end among them, then trimmed.
    expect(stderr.text()).toBe(`${'x'.repeat(1000 - 'boom € failed\n'.length)}boom € failed`);
    expect(floods).toEqual([]);
  });

  it('tells of a flood once, past 50 MiB within one window, and counts afresh in the next', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const floods: string[] = [];
    const stderr = stderrTail((why) => floods.push(why));
    const chunk = Buffer.alloc(1 << 20, 'e');
    for (let i = 0; i < 50; i++) stderr.take(chunk);
    expect(floods).toEqual([]);
    vi.advanceTimersByTime(10_000);
    for (let i = 0; i < 50; i++) stderr.take(chunk);
    expect(floods).toEqual([]);
    stderr.take('e');
    stderr.take(chunk);
    expect(floods).toEqual(['it wrote more than 50 MiB to stderr within 10 s']);
  });
});
