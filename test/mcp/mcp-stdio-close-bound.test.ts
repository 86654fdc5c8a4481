import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import { alive, marksFile, type Marks } from './support/mcp-configs.js';
import { watchedClient, type WatchedClient } from './support/watched-client.js';

const SCRIPT = fileURLToPath(new URL('./support/exit-stdio-server.mjs', import.meta.url));

/** The exit server (see exit-stdio-server.mjs) in `mode`, marking into `marks`. */
function exitServer(mode: 'polite' | 'stubborn', marks: Marks): McpStdioServerConfig {
  return { command: process.execPath, args: [SCRIPT], env: { ...marks.env, MCP_EXIT_MODE: mode } };
}

/** Whether `promise` settles within `ms` (a generous bound, not a target); the timer is cleared either way. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

let marks: Marks | undefined;
let watched: WatchedClient | undefined;
afterEach(async () => {
  await watched?.close();
  await marks?.cleanup();
  watched = undefined;
  marks = undefined;
});

// The SDK's close ends the server's stdin, waits 2 s, sends SIGTERM, waits 2 s more, then
// sends SIGKILL (and does not wait for it to take): a server ignoring both held every close
// (engine.close(), a failed start) for 4 s.
describe('closing a stdio MCP server', () => {
  it('one ignoring its stdin ending and SIGTERM is killed, and has gone (reaped) when the close resolves, long before the SDK would kill it', async () => {
    marks = await marksFile();
    watched = await watchedClient(exitServer('stubborn', marks));
    const { pid } = watched;
    expect(await settlesWithin(watched.close(), 3_000)).toBe(true);
    // It was told both politely, and took neither: only a SIGKILL ends it, and it has ended.
    expect(await marks.lines()).toEqual(['stdin ended', 'sigterm']);
    // Signal 0 reaches a zombie too: failing, it shows the process was reaped as well.
    expect(alive(pid)).toBe(false);
  }, 30_000);

  it('one that exits when its stdin ends is not signalled: it exits by itself, and has gone when the close resolves', async () => {
    marks = await marksFile();
    watched = await watchedClient(exitServer('polite', marks));
    const { pid } = watched;
    await watched.close();
    expect(await marks.lines()).toEqual(['stdin ended', 'exit 0']);
    expect(alive(pid)).toBe(false);
  }, 30_000);
});
