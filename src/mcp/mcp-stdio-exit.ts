import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NO_TREE, type ServerTree } from './mcp-process-tree.js';

/**
 * How long a stdio server gets to exit once its stdin has ended, and again once it has been
 * sent SIGTERM, before the next, harder step. A server that reads its stdin sees the end at
 * once and exits within milliseconds (tens on a busy machine): half a second is ample for it
 * to flush and go, while a server that ignores both steps holds `engine.close()` for about
 * 1 s in all, not the SDK's 4 s (its own waits are 2 s each). Servers close side by side, so
 * that is the bound for an engine with many of them too.
 */
export const MCP_STDIO_EXIT_GRACE_MS = 500;

/**
 * The parts of a server's process used to end it: a `ChildProcess` has them, and so can a
 * stand-in for one that has exited, with no emitter of its own (only the `exit` listener is
 * used, and what `once` and `off` return is not).
 */
export interface StdioChild {
  readonly exitCode: ChildProcess['exitCode'];
  readonly signalCode: ChildProcess['signalCode'];
  kill(signal?: NodeJS.Signals | number): boolean;
  once(event: 'exit', listener: () => void): unknown;
  off(event: 'exit', listener: () => void): unknown;
}

/** A server's process as the SDK's stdio transport holds it: a {@link StdioChild}, with its streams. */
export interface StdioProcess extends StdioChild {
  readonly stdout?: unknown;
  readonly stderr?: unknown;
}

/**
 * The SDK's stdio transport shows only its server's pid, and keeps the process in a field of
 * its own (`_process`, while it runs): that field, any object, or undefined. The one lookup of
 * it (`stdioChildOf`, and the stdout reader), so an SDK that renamed it is met in one place.
 */
export function processField(transport: Transport): object | undefined {
  const child: unknown = (transport as unknown as { readonly _process?: unknown })._process;
  return typeof child === 'object' && child !== null ? child : undefined;
}

/**
 * The server's process when it has what ending it needs (`kill`, `once`, `off`), looked up by
 * shape ({@link processField}): an SDK that changed it costs the early stop and the bounded
 * close, never a crash.
 */
export function stdioChildOf(transport: Transport): StdioProcess | undefined {
  const child = processField(transport);
  if (child === undefined) return undefined;
  const { kill, once, off } = child as { kill?: unknown; once?: unknown; off?: unknown };
  const usable = typeof kill === 'function' && typeof once === 'function' && typeof off === 'function';
  return usable ? (child as StdioProcess) : undefined;
}

/** How often the processes a server left behind are looked at, once the spawned one has exited. */
const TREE_POLL_MS = 50;

/**
 * Waits for `child` to exit after its stdin has been ended (the polite step, which the
 * caller takes), sending it SIGTERM after `graceMs`, then SIGKILL `graceMs` later. Resolves
 * once it has exited (and node has reaped it: no zombie is left), or `graceMs` after the
 * SIGKILL even if it has not (a process stuck in the kernel, which node reaps whenever it
 * goes), so the wait is bounded by three graces. Never rejects; its timers and its listener
 * are gone when it resolves. The SDK's own close runs alongside: its further signals to a
 * process that has exited do nothing, and its timers are unref'd, so they keep nothing alive.
 *
 * `tree` holds the server's other processes (a wrapper's child: see `serverTree`): each step
 * signals them too, and the wait goes on, within the same bound, until they have gone as
 * well, looked at every 50 ms once `child` has exited.
 *
 * @example
 * ```ts
 * stdin.end();
 * await exitWithin(child, MCP_STDIO_EXIT_GRACE_MS);
 * ```
 */
export function exitWithin(child: StdioChild, graceMs: number, tree: ServerTree = NO_TREE): Promise<void> {
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  if (exited() && !tree.alive()) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let poll: NodeJS.Timeout | undefined;
    let over = false;
    const done = (): void => {
      over = true;
      clearTimeout(timer);
      clearInterval(poll);
      child.off('exit', gone);
      resolve();
    };
    // The spawned process has exited: the wait is over, unless a process it started is still there.
    const gone = (): void => {
      if (!tree.alive()) done();
      else poll ??= setInterval(() => !tree.alive() && done(), TREE_POLL_MS);
    };
    child.once('exit', gone);
    if (exited()) gone();
    // Each step may end the wait (an exit said at once): then no further step is timed.
    const after = (step: () => void): void => {
      if (!over) timer = setTimeout(step, graceMs);
    };
    after(() => {
      signal(child, 'SIGTERM');
      void tree.signal('SIGTERM');
      after(() => {
        signal(child, 'SIGKILL');
        void tree.signal('SIGKILL');
        after(done);
      });
    });
  });
}

/** Sends `name` to `child`; one that has exited meanwhile is not signalled (node knows it has gone). */
function signal(child: StdioChild, name: NodeJS.Signals): void {
  try {
    child.kill(name);
  } catch {
    // Only an unknown signal throws; a failure to send is an `error` event, which the SDK handles.
  }
}
