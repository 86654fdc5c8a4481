import { EventEmitter } from 'node:events';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MCP_UNASKED_BYTES_MAX, MCP_UNASKED_BYTES_WINDOW_MS } from '../../src/mcp/mcp-notification-guard.js';
import { lineBytesOf, lineSplitter, readStdoutLines } from '../../src/mcp/mcp-stdio-lines.js';
import { junkConnectionPerTest } from './support/junk-server.js';

afterEach(() => {
  vi.restoreAllMocks();
});
const started = junkConnectionPerTest();

describe('lineSplitter', () => {
  it('gives each line once, whatever the chunks, without its \\n or the \\r of a \\r\\n', () => {
    const lines: string[] = [];
    const feed = lineSplitter(100, (line) => lines.push(line.toString()), () => lines.push('TOO LONG'));
    for (const chunk of ['ab', 'c\r\nd', 'e\n\nf', 'g\n', 'h\ni\nj']) feed(Buffer.from(chunk));
    expect(lines).toEqual(['abc', 'de', '', 'fg', 'h', 'i']);
  });

  it('says once that a line is over its bound, counted over the chunks, and gives nothing after', () => {
    const lines: string[] = [];
    let tooLong = 0;
    const feed = lineSplitter(10, (line) => lines.push(line.toString()), () => tooLong++);
    feed(Buffer.from('0123456789\n01234'));
    feed(Buffer.from('56'));
    feed(Buffer.from('7890\nlater\n'));
    expect(lines).toEqual(['0123456789']);
    expect(tooLong).toBe(1);
  });
});

// Each line of junk was decoded to a string and given to JSON.parse before it was found to be
// none: 10 MiB of 'x' cost both. The SDK takes one object a line (no batch), so a line whose
// first byte past JSON's blanks is not `{` is junk, reported (and counted) as before, unparsed.
describe('readStdoutLines', () => {
  it('reports a line not starting with "{" as junk, with its size, without parsing it; a message after it still comes', () => {
    const stdout = new EventEmitter();
    const transport = { _process: { stdout } } as unknown as Transport;
    const parsed: string[] = [];
    const errors: Error[] = [];
    const messages: JSONRPCMessage[] = [];
    const parse = (line: string): JSONRPCMessage => {
      parsed.push(line);
      return deserializeMessage(line);
    };
    expect(readStdoutLines(transport, { parse, max: 20 * 1024 * 1024, tooLong: () => undefined })).toBe(true);
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => messages.push(message);
    const junk = 'x'.repeat(10 * 1024 * 1024);
    const message = '  {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';
    const batch = '[{"jsonrpc":"2.0","method":"ping","id":1}]';
    const broken = '{"jsonrpc":"2.0","id":1,"result":{}} trailing';
    stdout.emit('data', Buffer.from(`${junk}\n${batch}\n\r\n${broken}\n${message}\n`));
    // Only the lines starting with `{` were parsed: the broken one fails as the SDK fails it.
    expect(parsed).toEqual([broken, message]);
    expect(errors.map((e) => lineBytesOf(e))).toEqual([junk.length, batch.length, 0, broken.length]);
    expect(errors[0]?.message).toBe(`a line of ${junk.length} bytes that is no JSON-RPC message (it starts "${'x'.repeat(40)}"..., not with "{")`);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    expect(lineBytesOf(messages[0]!)).toBe(message.length);
  });
});

// The SDK's reader copied its whole buffer at every chunk: a line of nearly 10 MiB followed
// by a few bytes a millisecond kept the event loop busy for good. Counted in bytes copied,
// not time: this line (1 MiB, then 300 chunks of 8 bytes) cost the SDK some 300 MiB of copies.
describe('a stdio MCP server writing a long line a few bytes at a time', () => {
  it('has each byte of it copied about once', async () => {
    const c = await started('drip');
    const concat = Buffer.concat;
    let copied = 0;
    vi.spyOn(Buffer, 'concat').mockImplementation((list, length) => {
      const joined = concat(list, length);
      copied += joined.length;
      return joined;
    });
    // Answered only once the line has ended.
    await expect(c.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ type: 'text', text: 'echo ran' }] });
    expect(copied).toBeGreaterThan(1024 * 1024);
    expect(copied).toBeLessThan(4 * 1024 * 1024);
    expect(c.running).toBe(true);
  }, 60_000);
});

// Fewer than the thousand lines a second the junk bound counts, yet each of 10 MiB: one every
// 50 ms held the event loop all but still, and the connection stayed up.
describe('a stdio MCP server writing lines of junk of 9.9 MiB as fast as it can', () => {
  it('has its connection closed once they pass 50 MiB within 10 s, saying why', async () => {
    const c = await started('big-junk');
    await expect.poll(() => c.running, { timeout: 30_000 }).toBe(false);
    const mib = MCP_UNASKED_BYTES_MAX / 1024 / 1024;
    expect(c.problem).toMatch(
      `stopped: it wrote more than ${mib} MiB that answered no request of ours (notifications, requests, lines that were not JSON-RPC) within ${MCP_UNASKED_BYTES_WINDOW_MS / 1000} s, so rxharness closed the connection`,
    );
  }, 60_000);
});
