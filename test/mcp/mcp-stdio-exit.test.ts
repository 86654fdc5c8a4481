import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitWithin, MCP_STDIO_EXIT_GRACE_MS, type StdioChild } from '../../src/mcp/mcp-stdio-exit.js';

/** A server process that exits when sent one of `fatal` (none: it takes every signal), recording what it was sent. */
class FakeChild extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly sent: string[] = [];
  constructor(private readonly fatal: readonly NodeJS.Signals[]) {
    super();
  }
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exitCode !== null || this.signalCode !== null) return false;
    this.sent.push(signal);
    if (this.fatal.includes(signal)) this.exit(null, signal);
    return true;
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/** Settles `promise`'s state into `seen` so a test can look without awaiting. */
function watch(promise: Promise<void>): { done: boolean } {
  const seen = { done: false };
  void promise.then(() => (seen.done = true));
  return seen;
}

const child = (fatal: readonly NodeJS.Signals[]): FakeChild & StdioChild => new FakeChild(fatal) as FakeChild & StdioChild;

afterEach(() => {
  vi.useRealTimers();
});

describe('exitWithin', () => {
  it('a process that exits within the grace is sent nothing, and nothing of the wait is left', async () => {
    vi.useFakeTimers();
    const server = child(['SIGTERM', 'SIGKILL']);
    const seen = watch(exitWithin(server, MCP_STDIO_EXIT_GRACE_MS));
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS - 1);
    server.exit(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.done).toBe(true);
    expect(server.sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.listenerCount('exit')).toBe(0);
  });

  it('a process that takes SIGTERM is not sent SIGKILL', async () => {
    vi.useFakeTimers();
    const server = child(['SIGTERM', 'SIGKILL']);
    const seen = watch(exitWithin(server, MCP_STDIO_EXIT_GRACE_MS));
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS);
    expect(seen.done).toBe(true);
    expect(server.sent).toEqual(['SIGTERM']);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.listenerCount('exit')).toBe(0);
  });

  it('a process ignoring SIGTERM is sent SIGKILL one grace later, and the wait ends when it exits', async () => {
    vi.useFakeTimers();
    const server = child(['SIGKILL']);
    const seen = watch(exitWithin(server, MCP_STDIO_EXIT_GRACE_MS));
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS);
    expect(server.sent).toEqual(['SIGTERM']);
    expect(seen.done).toBe(false);
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS);
    expect(server.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(seen.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.listenerCount('exit')).toBe(0);
  });

  it('a process that outlives even SIGKILL (stuck in the kernel) does not hold the wait past a third grace', async () => {
    vi.useFakeTimers();
    const server = child([]);
    const seen = watch(exitWithin(server, MCP_STDIO_EXIT_GRACE_MS));
    await vi.advanceTimersByTimeAsync(3 * MCP_STDIO_EXIT_GRACE_MS - 1);
    expect(server.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(seen.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.listenerCount('exit')).toBe(0);
  });

  it('a process that has exited already is waited for not at all', async () => {
    vi.useFakeTimers();
    const server = child([]);
    server.exit(1);
    await exitWithin(server, MCP_STDIO_EXIT_GRACE_MS);
    expect(server.sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
