import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerTree } from '../../src/mcp/mcp-process-tree.js';
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

/** A wrapper's child (see `serverTree`) that goes when sent one of `fatal`, or when a test sets `running` false; recording what it was sent. */
class FakeTree implements ServerTree {
  readonly sent: string[] = [];
  running = true;
  constructor(private readonly fatal: readonly NodeJS.Signals[]) {}
  async collect(): Promise<void> {}
  async signal(name: NodeJS.Signals): Promise<void> {
    if (!this.running) return;
    this.sent.push(name);
    if (this.fatal.includes(name)) this.running = false;
  }
  alive(): boolean {
    return this.running;
  }
}

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

  it('a wrapper that exits at once leaves the wait to its child: signalled at each step, the wait ends when it goes, between steps', async () => {
    vi.useFakeTimers();
    const wrapper = child(['SIGTERM', 'SIGKILL']);
    const tree = new FakeTree(['SIGKILL']);
    const seen = watch(exitWithin(wrapper, MCP_STDIO_EXIT_GRACE_MS, tree));
    wrapper.exit(0);
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS);
    expect(tree.sent).toEqual(['SIGTERM']);
    expect(seen.done).toBe(false);
    await vi.advanceTimersByTimeAsync(MCP_STDIO_EXIT_GRACE_MS);
    expect(tree.sent).toEqual(['SIGTERM', 'SIGKILL']);
    // Found gone at the next look (every 50 ms), not at the end of the third grace.
    await vi.advanceTimersByTimeAsync(50);
    expect(seen.done).toBe(true);
    expect(wrapper.sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    expect(wrapper.listenerCount('exit')).toBe(0);
  });

  it('a child that exits with its stdin ending ends the wait at the next look, with nothing sent', async () => {
    vi.useFakeTimers();
    const wrapper = child([]);
    const tree = new FakeTree([]);
    const seen = watch(exitWithin(wrapper, MCP_STDIO_EXIT_GRACE_MS, tree));
    wrapper.exit(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(seen.done).toBe(false);
    tree.running = false;
    await vi.advanceTimersByTimeAsync(50);
    expect(seen.done).toBe(true);
    expect(tree.sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a tree that outlives even SIGKILL does not hold the wait past a third grace', async () => {
    vi.useFakeTimers();
    const wrapper = child(['SIGTERM']);
    const tree = new FakeTree([]);
    const seen = watch(exitWithin(wrapper, MCP_STDIO_EXIT_GRACE_MS, tree));
    await vi.advanceTimersByTimeAsync(3 * MCP_STDIO_EXIT_GRACE_MS - 1);
    expect(wrapper.sent).toEqual(['SIGTERM']);
    expect(tree.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(seen.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(wrapper.listenerCount('exit')).toBe(0);
  });

  it('a process that has exited already, with nothing of its tree left, is waited for not at all', async () => {
    vi.useFakeTimers();
    const wrapper = child([]);
    wrapper.exit(0);
    const tree = new FakeTree([]);
    tree.running = false;
    await exitWithin(wrapper, MCP_STDIO_EXIT_GRACE_MS, tree);
    expect(vi.getTimerCount()).toBe(0);
  });
});
