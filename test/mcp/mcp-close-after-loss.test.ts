import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/mcp/mcp-connection.js';
import { junkServer } from './support/junk-server.js';

const WRAPPER = fileURLToPath(new URL('./support/wrapper.sh', import.meta.url));

/** Whether `pid` is a process that still runs: a zombie (killed, not yet reaped) has ended. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** Resolves at the first turn of the event loop at which `check` holds (a turn, not a timer: the guard's kill takes several). */
async function untilTurn(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

let dir: string | undefined;
let connection: McpConnection | undefined;
let server: number | undefined;
afterEach(async () => {
  await connection?.close();
  // A failed test must not leave its server running: it is ours, and known by pid.
  if (server !== undefined && running(server)) process.kill(server, 'SIGKILL');
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  connection = dir = server = undefined;
});

// A guard giving up kills the server's processes, a wrapper's child after the wrapper (found
// through /proc first). The wrapper's end closed the connection, which went idle, and an idle
// connection's close() resolved at once: the child, still being killed, outlived engine.close().
describe.runIf(process.platform === 'linux')('closing a stdio MCP connection a guard has just given up on', () => {
  it('resolves only once the server behind its wrapper has gone too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxharness-mcp-loss-'));
    const pidFile = join(dir, 'pid');
    const junk = junkServer('garbage', { MCP_JUNK_STUBBORN: '1', MCP_JUNK_PID_FILE: pidFile });
    connection = new McpConnection('junk', { ...junk, command: '/bin/sh', args: [WRAPPER, junk.command, ...(junk.args ?? [])] }, process.cwd());
    await connection.ensure();
    expect(connection.problem).toBeUndefined();
    server = Number(await readFile(pidFile, 'utf8'));
    expect(running(server)).toBe(true);
    const c = connection;
    await untilTurn(() => !c.running);
    expect(c.problem).toMatch(/^stopped: it sent more than 1000 lines that were not JSON-RPC/);
    await c.close();
    expect(running(server)).toBe(false);
  }, 60_000);
});
