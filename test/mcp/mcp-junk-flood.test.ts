import { describe, expect, it } from 'vitest';
import { junkConnectionPerTest } from './support/junk-server.js';

const started = junkConnectionPerTest();

// The SDK reports each such message as an error it builds (an answer's holding it as JSON),
// which nobody reads; the guard let answers through whatever their id, and never saw the
// lines the transport could not read. A server writing either for ever held the event loop
// all but still, for as long as it ran, and its connection stayed up.
describe.each([
  ['answers to ids never sent', 'stray'],
  ['lines that are not JSON', 'garbage'],
])('a stdio MCP server writing %s as fast as it can', (_what, mode) => {
  it('has its connection closed, saying why; a call then fails naming the reason', async () => {
    const c = await started(mode);
    await expect.poll(() => c.running, { timeout: 30_000 }).toBe(false);
    expect(c.problem).toMatch(/^stopped: it sent more than 1000 lines that were not JSON-RPC, or answers to no request of ours, within 1 s, so rxharness closed the connection/);
    await expect(c.call('echo', {}, new AbortController().signal)).rejects.toThrow(/MCP server "junk" is not running \(stopped: it sent more than 1000/);
  }, 60_000);
});

// A banner logged to stdout as the server starts is no flood: 1,500 lines closed the connection
// before it could answer `initialize` when the bound of 1,000 a second counted them too.
describe('a stdio MCP server logging 1,500 lines to stdout before it answers initialize', () => {
  it('starts, and its tools answer', async () => {
    const c = await started('chatty');
    await expect(c.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ type: 'text', text: 'echo ran' }] });
    expect(c.running).toBe(true);
  }, 60_000);
});

describe('a stdio MCP server answering each call twice, with a line of noise after', () => {
  it('gives each call its first answer; the second and the noise are skipped, and the connection stays', async () => {
    const c = await started('twice');
    for (let i = 0; i < 20; i++) await expect(c.call('echo', {}, new AbortController().signal)).resolves.toMatchObject({ content: [{ type: 'text', text: 'echo ran' }] });
    expect(c.running).toBe(true);
  }, 60_000);
});

// The SDK closed the transport, saying why only to its `onerror`: the call failed with
// "the server closed the connection", which it had not.
describe('a stdio MCP server answering a call with one line of 11 MiB', () => {
  it('has the call fail saying the line was over 10 MiB, and is started again after', async () => {
    const c = await started('long-line');
    await expect(c.call('echo', {}, new AbortController().signal)).rejects.toThrow(
      /MCP server "junk" failed during the call \(stopped: it wrote a line over 10 MiB to stdout \(one message may be at most that\), so rxharness closed the connection\)/,
    );
    expect(c.running).toBe(false);
    await c.ensure();
    expect(c.running).toBe(true);
  }, 60_000);
});
