import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serverTree, type ServerTree } from './mcp-process-tree.js';
import { exitWithin, MCP_STDIO_EXIT_GRACE_MS, stdioChildOf, type StdioProcess } from './mcp-stdio-exit.js';

/** The server's process, as far as it is used: ended ({@link StdioChild}) and read from. */
/**
 * Makes closing a stdio `transport` stop reading its server at once and end its process
 * within a bound, and returns how to give up on that server for good. The SDK's `close` ends
 * the server's stdin and waits up to 2 s for it to exit, then sends SIGTERM and waits 2 s
 * more before SIGKILL; all that while it went on reading every line the process wrote to
 * stdout, and checking each as JSON-RPC against its schemas: a server spewing megabytes once
 * told to stop cost a core for 4 s, after every close, and one that ignored its stdin's end
 * and SIGTERM held `engine.close()` (and a failed start) for those 4 s. Now the process's
 * stdout and stderr are destroyed first (what it writes after is never read; a node server's
 * writes then fail with EPIPE), then the SDK ends its stdin, and our close resolves once the
 * process has exited: sent SIGTERM after {@link MCP_STDIO_EXIT_GRACE_MS}, SIGKILL after as
 * long again ({@link exitWithin}). What is left of the SDK's close after that does nothing
 * and holds nothing open. Giving up (`abandon`: the server flooded us, or took nothing we
 * sent) kills the process with SIGKILL at once: it has shown it is hostile or broken, so no
 * grace is owed. Every close after the first waits for the first and for a give-up's kill:
 * the SDK's client closes the transport again once it has closed, and a close that found no
 * process left resolved while a wrapper's child was still being killed. Changes
 * `transport.close` in place, before a client connects it.
 *
 * A server started through a wrapper (`npx`, `sh -c`, a script starting the real server as
 * its child) is more than one process: each step above reaches all of them (`serverTree`:
 * the descendants of the spawned process, found before its stdin is ended, and every process
 * whose environment carries `tag`, as the spawned one's does), and the close waits for them
 * too, within the same bound. That is Linux only (it reads `/proc`); elsewhere only the
 * spawned process is signalled, and a wrapper's child that ignores its stdin ending stays.
 *
 * @example
 * ```ts
 * const abandon = deafOnClose(transport, tag); // tag: the server's MCP_SERVER_TAG
 * await client.connect(transport);
 * abandon(); // stops reading, kills the process, closes the transport
 * ```
 */
export function deafOnClose(transport: Transport & { readonly pid: number | null }, tag: string): () => void {
  const close = transport.close.bind(transport);
  // The first close, which every later one waits for too (the SDK's client closes the
  // transport again after a guard did): a second close found no process, so it resolved at
  // once, before the first had ended it.
  let ending: Promise<void> | undefined;
  // The kill of a give-up, also waited for by every close.
  let killing: Promise<void> = Promise.resolve();
  const end = async (): Promise<void> => {
    // Looked up before the SDK's close, which forgets the process as it starts.
    const child = stdioChildOf(transport);
    const pid = transport.pid;
    stopReading(child);
    // Found while parent links still hold: a wrapper that exits once its stdin ends leaves
    // its child to init, and only the tag would lead to it after.
    const tree = await collected(pid, tag);
    // Ends the server's stdin at once (the polite step), then waits on timers of its own.
    const closing = close();
    if (child === undefined) {
      // Without the process (it has exited, or an SDK that renamed its field), no bound on the
      // SDK's own close; what the server left is then killed, and waited for within the bound.
      await closing.catch(() => undefined);
      await tree.signal('SIGKILL');
      await exitWithin(EXITED, MCP_STDIO_EXIT_GRACE_MS, tree);
      return;
    }
    closing.catch(() => undefined);
    await exitWithin(child, MCP_STDIO_EXIT_GRACE_MS, tree);
  };
  transport.close = async () => {
    ending ??= end();
    await ending;
    await killing;
  };
  return () => {
    const child = stdioChildOf(transport);
    const pid = transport.pid;
    stopReading(child);
    // The tree is found first (the spawned process's death would cut its children's parent
    // links), then everything is killed; the close below fails the calls in flight at once.
    killing = collected(pid, tag).then((tree) => {
      kill(child, pid);
      return tree.signal('SIGKILL');
    });
    void transport.close().catch(() => undefined);
  };
}

/** A spawned process that has exited: waiting on it is waiting on the rest of its tree only. */
const EXITED: StdioProcess = { exitCode: 0, signalCode: null, kill: () => false, once: () => EXITED, off: () => EXITED };

/** The server's processes besides the spawned one (`pid`), as they are now. Never rejects. */
async function collected(pid: number | null, tag: string): Promise<ServerTree> {
  const tree = serverTree(pid ?? undefined, tag);
  await tree.collect();
  return tree;
}

/** Kills the spawned process with SIGKILL: through node's handle when there is one (it knows whether it was reaped), else by pid. */
function kill(child: StdioProcess | undefined, pid: number | null): void {
  try {
    if (child !== undefined) child.kill('SIGKILL');
    else if (pid !== null) process.kill(pid, 'SIGKILL');
  } catch {
    // It had exited already.
  }
}

/** Destroys the process's stdout and stderr, so nothing more it writes is read. */
function stopReading(child: StdioProcess | undefined): void {
  destroyable(child?.stdout)?.destroy();
  destroyable(child?.stderr)?.destroy();
}

function destroyable(stream: unknown): { destroy(): unknown } | undefined {
  const candidate = stream as { destroy?: unknown } | null | undefined;
  return typeof candidate?.destroy === 'function' ? (candidate as { destroy(): unknown }) : undefined;
}
