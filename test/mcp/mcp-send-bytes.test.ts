import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpConnection } from '../../src/mcp/mcp-connection.js';
import { MCP_REQUEST_ID_MAX_CHARS } from '../../src/mcp/mcp-notification-guard.js';
import { MCP_UNSENT_MAX_BYTES } from '../../src/mcp/mcp-send-guard.js';
import { junkConnectionPerTest } from './support/junk-server.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});
// Registered after the folder's clean-up: vitest runs after-hooks last first, so the server is closed before its folder goes.
const connect = junkConnectionPerTest('deaf');

/** The junk server in `mode`, writing its pid to a file of its own (`dir`). */
async function started(mode: string): Promise<McpConnection> {
  dir = await mkdtemp(join(tmpdir(), 'rxharness-mcp-deaf-'));
  return connect(mode, { MCP_JUNK_PID_FILE: join(dir, 'pid') });
}

// The answer to a ping repeats its id, and waits in memory while the server reads nothing:
// pings with 5 MiB ids ran the engine out of memory long before 1,000 answers waited.
describe('a stdio MCP server that stops reading and sends pings whose ids are 5 MiB', () => {
  it('has its connection closed at the first, saying why', async () => {
    const c = await started('big-ping');
    await expect.poll(() => c.running, { timeout: 15_000 }).toBe(false);
    expect(c.problem).toMatch(
      `stopped: it sent a request whose id is ${5 * 1024 * 1024 + 3} characters long (the answer repeats it; rxharness takes ids of at most ${MCP_REQUEST_ID_MAX_CHARS}), so rxharness closed the connection`,
    );
  }, 30_000);
});

// The bound counted messages only: 24 calls of 1 MiB each, 24 MiB waiting in memory, were
// far from the 1,000 messages that closed the connection.
describe('a stdio MCP server that stops reading, sent 24 calls of 1 MiB each', () => {
  it('has its connection closed once more than 16 MiB wait for it, and the calls fail saying why', async () => {
    const c = await started('deaf');
    const aborts = Array.from({ length: 24 }, () => new AbortController());
    const calls = aborts.map((abort, i) => c.call('echo', { text: `${i}`.padEnd(1024 * 1024, 'x') }, abort.signal).then(
      () => 'answered',
      (e: unknown) => String(e),
    ));
    await expect.poll(() => c.running, { timeout: 15_000 }).toBe(false);
    // A call failing as its message could not go out says so first; either way, the reason.
    expect(c.problem).toMatch(new RegExp(`^stopped: .*it did not take the last ${MCP_UNSENT_MAX_BYTES / 1024 / 1024} MiB rxharness sent it \\(\\d+ messages\\)`));
    for (const abort of aborts) abort.abort();
    const ends = await Promise.all(calls);
    expect(ends.filter((e) => e.includes('did not take the last 16 MiB'))).not.toHaveLength(0);
    expect(ends).not.toContain('answered');
    // Given up on, its process is killed (it would read nothing of a polite close).
    const pid = Number(await readFile(join(dir!, 'pid'), 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  }, 30_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
