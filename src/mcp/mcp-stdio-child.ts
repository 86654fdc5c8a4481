import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The streams of a stdio server's process that we read from. */
interface ReadEnds {
  readonly stdout?: { destroy(): unknown } | null;
  readonly stderr?: { destroy(): unknown } | null;
}

/**
 * Makes closing a stdio `transport` stop reading its server at once, and returns how to give
 * up on that server for good. The SDK's `close` ends the server's stdin and waits up to 2 s
 * for it to exit, then sends SIGTERM and waits 2 s more before SIGKILL; all that while it
 * went on reading every line the process wrote to stdout, and checking each as JSON-RPC
 * against its schemas: a server spewing megabytes once told to stop cost a core for 4 s,
 * after every close. Now the process's stdout and stderr are destroyed first (what it writes
 * after is never read; a node server's writes then fail with EPIPE), then the SDK closes as
 * before. Giving up (`abandon`: the server flooded us, or took nothing we sent) also kills the
 * process with SIGKILL at once: it has shown it is hostile or broken, so no grace is owed.
 * Changes `transport.close` in place, before a client connects it.
 *
 * @example
 * ```ts
 * const abandon = deafOnClose(transport);
 * await client.connect(transport);
 * abandon(); // stops reading, kills the process, closes the transport
 * ```
 */
export function deafOnClose(transport: Transport & { readonly pid: number | null }): () => void {
  const close = transport.close.bind(transport);
  const stopReading = (): void => {
    const ends = readEnds(transport);
    ends?.stdout?.destroy();
    ends?.stderr?.destroy();
  };
  transport.close = () => {
    stopReading();
    return close();
  };
  return () => {
    stopReading();
    const pid = transport.pid;
    try {
      if (pid !== null) process.kill(pid, 'SIGKILL');
    } catch {
      // It had exited already.
    }
    void transport.close().catch(() => undefined);
  };
}

/**
 * The server process's read ends: the SDK's stdio transport shows only its pid, and keeps the
 * process in a field of its own (`_process`, while it runs). Looked up by shape, so an SDK
 * that renamed it costs the early stop (the process is still ended, by pid and by the SDK's
 * close), never a crash.
 */
function readEnds(transport: Transport): ReadEnds | undefined {
  const child: unknown = (transport as unknown as { readonly _process?: unknown })._process;
  if (typeof child !== 'object' || child === null) return undefined;
  const { stdout, stderr } = child as { stdout?: unknown; stderr?: unknown };
  return { stdout: destroyable(stdout), stderr: destroyable(stderr) };
}

function destroyable(stream: unknown): { destroy(): unknown } | undefined {
  const candidate = stream as { destroy?: unknown } | null | undefined;
  return typeof candidate?.destroy === 'function' ? (candidate as { destroy(): unknown }) : undefined;
}
