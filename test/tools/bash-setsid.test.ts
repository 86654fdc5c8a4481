import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { createToolContext, runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// A process that calls setsid() leaves the command's process group and session, so killing
// the group misses it. The bash tool tags every process of a command through its
// environment and also kills whatever carries the tag (Linux: read from /proc).

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Kills what a failing test leaves behind, so it does not outlive the run. */
const strays = new Set<number>();
function alive(pid: number): number {
  strays.add(pid);
  return pid;
}

/** A deadline for a busy machine, not a target: each wait ends as soon as its condition holds. */
const WAIT = { timeout: 15_000, interval: 10 };

async function expectKilled(pid: number): Promise<void> {
  await vi.waitFor(() => expect(isAlive(pid), `pid ${pid} alive`).toBe(false), WAIT);
}

/**
 * Shell that waits (up to about 15 s) until the process `$p` runs `sleep`: setsid(1) calls
 * setsid() and `env -i` clears the environment before they exec it, so from then on the
 * process has left the group (and, with `env -i`, lost the tag). A fixed pause could end first
 * on a busy machine.
 */
const UNTIL_SLEEPING = 'for i in $(seq 1500); do [ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ] && break; sleep 0.01; done';

function pidIn(text: string): number {
  const match = /pid=(\d+)/.exec(text);
  if (!match) throw new Error(`no pid in ${JSON.stringify(text)}`);
  return alive(Number(match[1]));
}

describe.runIf(process.platform === 'linux')('bash tool and processes that leave the session (setsid)', () => {
  const fresh = toolContextPerTest();
  const bash = createBashTool({ killGraceMs: 200 });

  afterEach(async () => {
    for (const pid of strays) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    strays.clear();
  });

  it('stops a setsid child the command left running', async () => {
    // The wait lets the child call setsid() before the shell exits (else the group kill catches it).
    const result = await runTool(bash, { command: `setsid sleep 30 > /dev/null 2>&1 & p=$!; ${UNTIL_SLEEPING}; echo pid=$p` }, fresh.context);
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('background processes the command left running were stopped');
    await expectKilled(pidIn(result.text));
  });

  it('stops a double-forked daemon in its own session (reparented away from the command)', async () => {
    const pidFile = join(fresh.ws.dir, 'daemon.pid');
    // Waits for the daemon's pid (the file is written once it has forked, in its own session).
    const command = `(setsid sh -c 'sleep 30 > /dev/null 2>&1 & echo $! > ${pidFile}' &) ; for i in $(seq 1500); do p=$(cat ${pidFile} 2>/dev/null) && [ -n "$p" ] && break; sleep 0.01; done; ${UNTIL_SLEEPING}; echo pid=$p`;
    const result = await runTool(bash, { command }, fresh.context);
    expect(result.error).toBeUndefined();
    await expectKilled(pidIn(result.text));
  });

  it('on timeout kills a setsid child too', async () => {
    const result = await runTool(bash, { command: 'setsid sleep 30 > /dev/null 2>&1 & echo pid=$!; wait', timeout_ms: 400 }, fresh.context);
    expect(result.error).toBe('Command timed out after 400 ms');
    await expectKilled(pidIn(result.text));
  });

  it('on abort kills a setsid child too', async () => {
    const pidFile = join(fresh.ws.dir, 'pid');
    const running = runTool(bash, { command: `setsid sleep 30 > /dev/null 2>&1 & echo $! > ${pidFile}; wait` }, fresh.context);
    const pid = alive(
      await vi.waitFor(() => {
        const text = readFileSync(pidFile, 'utf8').trim();
        if (text === '') throw new Error('pid not written yet');
        return Number(text);
      }, WAIT),
    );
    // setsid() comes before exec: once it runs sleep, it has left the group.
    await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('sleep'), WAIT);
    fresh.context.controller.abort();
    expect((await running).error).toBe('Command was cancelled');
    await expectKilled(pid);
  });

  it('cannot find a process that also cleared its environment: the documented limit', async () => {
    const result = await runTool(bash, { command: `env -i setsid sleep 30 > /dev/null 2>&1 & p=$!; ${UNTIL_SLEEPING}; echo pid=$p` }, fresh.context);
    const pid = pidIn(result.text); // afterEach kills it
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isAlive(pid)).toBe(true);
  });

  it('leaves alone a process of another command running at the same time', async () => {
    const other = runTool(bash, { command: 'sleep 1; echo other done' }, createToolContext({ workspace: fresh.ws.dir }));
    const result = await runTool(bash, { command: `setsid sleep 30 > /dev/null 2>&1 & p=$!; ${UNTIL_SLEEPING}; echo pid=$p` }, fresh.context);
    await expectKilled(pidIn(result.text));
    expect((await other).text).toBe('other done\n[exit code: 0]');
  });
});
