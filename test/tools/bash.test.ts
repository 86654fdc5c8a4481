import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { runTool } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

/** Alive and not a zombie waiting to be reaped (PID 1 in a container may never reap it). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The kernel closes a killed process's pipes a moment before it shows it as dead, so the
 * result may arrive first: wait (briefly) for the death. A `sleep 30` that was not killed
 * would outlive the wait by far.
 */
async function expectKilled(pid: number): Promise<void> {
  // A deadline for a busy machine, not a target: the wait ends as soon as the process is gone.
  await vi.waitFor(() => expect(isAlive(pid), `pid ${pid} alive`).toBe(false), { timeout: 15_000, interval: 10 });
}

function pidIn(text: string): number {
  const match = /pid=(\d+)/.exec(text);
  if (!match) throw new Error(`no pid in ${JSON.stringify(text)}`);
  return Number(match[1]);
}

describe('bash tool', () => {
  const fresh = toolContextPerTest();
  const bash = createBashTool({ killGraceMs: 200 });

  it('runs in the workspace and reports output and exit code 0', async () => {
    const result = await runTool(bash, { command: 'pwd; echo hi > made.txt' }, fresh.context);
    expect(result).toEqual({ text: `${fresh.ws.dir}\n[exit code: 0]` });
    expect(await readFile(join(fresh.ws.dir, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('returns a non-zero exit as an error result with both streams', async () => {
    const result = await runTool(bash, { command: 'echo out; echo err >&2; exit 3' }, fresh.context);
    expect(result.error).toBe('Command exited with code 3');
    expect(result.text).toContain('out');
    expect(result.text).toContain('err');
    expect(result.text).toMatch(/\[exit code: 3\]$/);
  });

  it('says when there is no output', async () => {
    expect(await runTool(bash, { command: 'true' }, fresh.context)).toEqual({ text: '(no output)\n[exit code: 0]' });
  });

  it('keeps the head and the tail of long output with a marker', async () => {
    const result = await runTool(createBashTool({ maxOutputChars: 1000 }), { command: 'seq 1 100000' }, fresh.context);
    expect(result.text.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.text).toMatch(/\n99999\n100000\n\[exit code: 0\]$/);
    expect(result.text).toMatch(/\.\.\. \[\d+ characters omitted\] \.\.\./);
    expect(result.text.length).toBeLessThan(1200);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const result = await runTool(bash, { command: 'sleep 30 & echo pid=$!; wait', timeout_ms: 300 }, fresh.context);
    expect(result.error).toBe('Command timed out after 300 ms');
    expect(result.text).toContain('[timed out after 300 ms');
    await expectKilled(pidIn(result.text));
  });

  it('escalates to SIGKILL when the processes ignore SIGTERM', async () => {
    const command = "trap '' TERM; sleep 30 & echo pid=$!; wait";
    const result = await runTool(bash, { command, timeout_ms: 200 }, fresh.context);
    expect(result.error).toBe('Command timed out after 200 ms');
    await expectKilled(pidIn(result.text));
  });

  it('on abort kills the whole process group', async () => {
    const pidFile = join(fresh.ws.dir, 'pid');
    const running = runTool(bash, { command: `sleep 30 & echo $! > ${pidFile}; wait` }, fresh.context);
    const pid = await vi.waitFor(() => {
      const text = readFileSync(pidFile, 'utf8').trim();
      if (text === '') throw new Error('pid not written yet');
      return Number(text);
    }, { timeout: 15_000, interval: 10 });
    expect(isAlive(pid)).toBe(true);
    fresh.context.controller.abort();
    const result = await running;
    expect(result.error).toBe('Command was cancelled');
    await expectKilled(pid);
  });

  it('does not start when the signal is already aborted', async () => {
    fresh.context.controller.abort();
    const result = await runTool(bash, { command: `touch ${join(fresh.ws.dir, 'ran')}` }, fresh.context);
    expect(result.error).toBe('Command was cancelled');
    await expect(readFile(join(fresh.ws.dir, 'ran'))).rejects.toThrow();
  });

  it('stops background processes the command leaves behind', async () => {
    const result = await runTool(bash, { command: 'sleep 30 > /dev/null 2>&1 & echo pid=$!' }, fresh.context);
    expect(result.error).toBeUndefined();
    expect(result.text).toContain('background processes the command left running were stopped');
    await expectKilled(pidIn(result.text));
  });

  it('removes its abort listener when done', async () => {
    const add = vi.spyOn(fresh.context.signal, 'addEventListener');
    const remove = vi.spyOn(fresh.context.signal, 'removeEventListener');
    await runTool(bash, { command: 'true' }, fresh.context);
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]?.[1]);
  });

  it('reports a shell that cannot start', async () => {
    const broken = createBashTool({ shell: join(fresh.ws.dir, 'no-such-shell') });
    const result = await runTool(broken, { command: 'true' }, fresh.context);
    expect(result.error).toMatch(/^Could not start the command: .*ENOENT/);
  });

  it('uses the command as subject and touches no paths', () => {
    expect(bash.subject?.({ command: 'git status' })).toBe('git status');
    expect(bash.paths).toBeUndefined();
  });

  it('declares a bounded timeout_ms in its schema', () => {
    const timeout = (createBashTool({ maxTimeoutMs: 5000 }).parameters.properties as Record<string, Record<string, unknown>>)
      .timeout_ms;
    expect(timeout).toMatchObject({ type: 'integer', minimum: 1, maximum: 5000 });
  });
});
