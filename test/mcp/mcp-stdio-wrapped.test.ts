import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpStdioServerConfig } from '../../src/mcp/mcp-server-config.js';
import { collect } from '../support/collect-events.js';
import type { DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { marksFile, type Marks } from './support/mcp-configs.js';
import { watchedClient, type WatchedClient } from './support/watched-client.js';

const WRAPPER = fileURLToPath(new URL('./support/wrapper.sh', import.meta.url));
const SERVER = fileURLToPath(new URL('./support/exit-stdio-server.mjs', import.meta.url));

/** The stubborn exit server (it ignores its stdin ending and SIGTERM), started by `sh` running wrapper.sh in `mode`. */
function wrappedStubbornServer(mode: 'wait' | 'leave' | 'untagged', marks: Marks): McpStdioServerConfig {
  const env = { ...marks.env, MCP_EXIT_MODE: 'stubborn', MCP_EXIT_MARK_PID: '1', WRAPPER_MODE: mode };
  return { command: '/bin/sh', args: [WRAPPER, process.execPath, SERVER], env };
}

/** Whether `pid` is a process that still runs: a zombie (killed, not yet reaped by init) has ended. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** Resolves once `pid` no longer runs, or with false after `ms` (a generous deadline, not a target). */
async function endsWithin(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

let marks: Marks | undefined;
let watched: WatchedClient | undefined;
let server: number | undefined;
afterEach(async () => {
  await watched?.close();
  // A failed test must not leave its server running: it is ours, and known by pid.
  if (server !== undefined && running(server)) process.kill(server, 'SIGKILL');
  await marks?.cleanup();
  watched = undefined;
  marks = undefined;
  server = undefined;
});
// Registered after the afterEach above, so it runs first: this test's engines, then its fixture.
const startFixture = delegationFixturePerTest();
let f: DelegationFixture;

// Only the process the SDK spawned was signalled: a server behind a wrapper (`npx`, `sh -c`,
// a start script) that ignored its stdin ending stayed after every close, one more each time
// the engine started and closed it. The tree is found through /proc: Linux only.
describe.runIf(process.platform === 'linux')('closing a stdio MCP server started through a wrapper', () => {
  it.each([
    ['waits for it (its child, as npx and sh -c have)', 'wait'],
    ['waits for it, having taken rxharness\'s tag out of its environment (only the parent link leads to it)', 'untagged'],
    ['started it from a subshell that exited, leaving it to init (no parent link leads to it)', 'leave'],
  ] as const)('a server ignoring its stdin ending and SIGTERM, whose wrapper %s, is sent SIGTERM, then killed', async (_name, mode) => {
    marks = await marksFile();
    watched = await watchedClient(wrappedStubbornServer(mode, marks));
    server = Number((await marks.waitFor(/^pid \d+$/, 30_000)).slice(4));
    expect(server).not.toBe(watched.pid);
    expect(running(server)).toBe(true);
    await watched.close();
    expect(await endsWithin(server, 20_000)).toBe(true);
    // Told politely, then with SIGTERM, which it ignored: the SIGKILL of the tree ended it.
    expect(await marks.lines()).toEqual([`pid ${server}`, 'stdin ended', 'sigterm']);
  }, 60_000);

  it('engine.close() ends such a server too (its wrapper waiting for it), once a run has started it', async () => {
    marks = await marksFile();
    f = await startFixture({ main: steps({ text: 'done' }) });
    const engine = f.engine({ mcpServers: { w: wrappedStubbornServer('wait', marks) } });
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    server = Number((await marks.waitFor(/^pid \d+$/, 30_000)).slice(4));
    expect(running(server)).toBe(true);
    await engine.close();
    expect(await endsWithin(server, 20_000)).toBe(true);
    expect(await marks.lines()).toEqual([`pid ${server}`, 'stdin ended', 'sigterm']);
  }, 60_000);
});
