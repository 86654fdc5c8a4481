import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch, MCP_MESSAGE_MAX_BYTES } from './mcp-bounded-fetch.js';
import { guardedNotifications } from './mcp-notification-guard.js';
import { guardedReconnects } from './mcp-reconnect-guard.js';
import { guardedSends } from './mcp-send-guard.js';
import type { McpSdk } from './mcp-sdk.js';
import { MCP_SERVER_TAG, newServerTag } from './mcp-process-tree.js';
import { deafOnClose } from './mcp-stdio-child.js';
import { readStdoutLines } from './mcp-stdio-lines.js';
import { stderrTail } from './mcp-stdio-stderr.js';
import { isStdioServer, type McpHttpServerConfig, type McpServerConfig, type McpStdioServerConfig } from './mcp-server-config.js';

/** A transport to one server, and what its process last wrote to stderr. */
export interface OpenedTransport {
  readonly transport: Transport;
  /** The end of the server's stderr (a stdio server's; empty for HTTP), for the reason it failed. */
  stderrTail(): string;
  /** Why we closed the connection ourselves (an HTTP answer outgrew its bound, the server took nothing more); undefined when we did not. */
  closedBecause(): string | undefined;
  /**
   * Closes a stdio transport unless it was closed already, and resolves once its server's
   * processes have gone (within the exit bound of {@link deafOnClose}), a give-up's kill
   * included; at once for HTTP. Never rejects. The SDK's client forgets its transport once
   * it has closed, so its own `close()` then waits for nothing.
   */
  stopped(): Promise<void>;
}

/** A transport just made, with how to give up on its server for good (a stdio server's process is killed; nothing more for HTTP). */
type Made = Omit<OpenedTransport, 'closedBecause' | 'stopped'> & { readonly abandon?: () => void };

/**
 * A transport for one server's config, not yet started: a child process over stdio (run in
 * `cwd` resolved against the workspace; its stderr kept, not mixed into the engine's own
 * output) or Streamable HTTP (with the config's headers on every request, each answer
 * bounded by {@link boundedFetch} and reconnects by {@link guardedReconnects}: one outgrowing
 * its bound closes the connection). Either is closed when the server does not take what is
 * sent to it ({@link guardedSends}), or sends notifications or requests (pings) faster than
 * a sane rate ({@link guardedNotifications}, which also drops the notifications the client
 * does not use). Closing a stdio transport stops reading its process at
 * once and resolves once the process has exited, signalled after a short grace if it does
 * not ({@link deafOnClose}); giving up on a stdio server kills its process at once.
 *
 * @example
 * ```ts
 * const { transport, stderrTail } = openTransport(await loadMcpSdk(), { command: 'node', args: ['server.js'] }, '/work/project');
 * await client.connect(transport);
 * ```
 */
export function openTransport(sdk: McpSdk, config: McpServerConfig, workspace: string): OpenedTransport {
  // An answer outgrowing its bound, a server asking for reconnects in a tight loop, one not
  // taking what is sent to it, or one flooding notifications, ends the connection: calls in
  // flight fail at once, and the next run starts the server again.
  let closedBecause: string | undefined;
  // `politely`: the server is closed as on any close (its stdin ended, then signals), not
  // killed at once, for a server that is broken rather than hostile.
  const closeBecause = (problem: string, politely = false): void => {
    closedBecause ??= `${problem}, so rxharness closed the connection`;
    if (abandon && !politely) abandon();
    else void transport.close();
  };
  const { transport, stderrTail, abandon }: Made = isStdioServer(config) ? stdioTransport(sdk, config, workspace, closeBecause) : httpTransport(sdk, config, closeBecause);
  guardedSends(transport, closeBecause, { oneAtATime: isStdioServer(config) });
  guardedNotifications(transport, closeBecause);
  if (isStdioServer(config)) saysWhenALineIsTooLong(transport, closeBecause);
  const stopped = isStdioServer(config) ? () => transport.close().catch(() => undefined) : () => Promise.resolve();
  return { transport, stderrTail, closedBecause: () => closedBecause, stopped };
}

const LINE_TOO_LONG = `it wrote a line over ${MCP_MESSAGE_MAX_BYTES / 1024 / 1024} MiB to stdout (one message may be at most that)`;

/** Why a stdio server whose stdout ended while it ran on was closed (`closeWhenStdoutEnds`): what it did, and what that cost. */
const STDOUT_CLOSED = 'it closed its standard output (where its answers go) but kept running';

/**
 * Where the SDK still reads a stdio server itself ({@link readStdoutLines} could not find its
 * process), it closes a transport whose server wrote one line (a message) over its 10 MiB
 * buffer, and says why only to `onerror`: the connection seemed to have been closed by the
 * server ("the server closed the connection"). This closes it saying so (and kills the
 * process at once: it is broken or hostile). Wraps `start`, as the guards do, to see the
 * `onerror` a client sets.
 */
function saysWhenALineIsTooLong(transport: Transport, closeBecause: (problem: string) => void): void {
  const start = transport.start.bind(transport);
  transport.start = () => {
    const onerror = transport.onerror;
    transport.onerror = (error) => {
      if (/ReadBuffer exceeded maximum size/.test(error.message)) closeBecause(LINE_TOO_LONG);
      onerror?.(error);
    };
    return start();
  };
}

/** Streamable HTTP, each answer bounded by {@link boundedFetch} and reconnects by {@link guardedReconnects}. */
function httpTransport(sdk: McpSdk, config: McpHttpServerConfig, closeBecause: (problem: string) => void): Made {
  const headers = config.headers ? { ...config.headers } : undefined;
  const fetch = guardedReconnects(boundedFetch(closeBecause), closeBecause);
  const transport = new sdk.StreamableHTTPClientTransport(new URL(config.url), { fetch, ...(headers ? { requestInit: { headers } } : {}) });
  return { transport, stderrTail: () => '' };
}

/**
 * A child process over stdio, its stderr kept (the end of it; more than a bound of it within a
 * window closes the connection, see {@link stderrTail}), its stdout read by
 * {@link readStdoutLines} (in linear time; a line over 10 MiB closes it), read no more once
 * closed.
 */
function stdioTransport(sdk: McpSdk, config: McpStdioServerConfig, workspace: string, closeBecause: (problem: string, politely?: boolean) => void): Made {
  const tag = newServerTag();
  const transport = new sdk.StdioClientTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    // The SDK adds its few inherited variables (PATH, HOME...) to these. The tag marks the
    // server's every process, so a close ends those a wrapper (`npx`, `sh -c`) started too.
    env: { ...config.env, [MCP_SERVER_TAG]: tag },
    cwd: resolve(workspace, config.cwd ?? '.'),
    // Piped, not inherited: servers log there, which would tear a terminal tree or mix into
    // `--json` output; the end of it is what explains a server that fails.
    stderr: 'pipe',
    // The SDK's own default, said here so the message of a line past it tells the truth.
    maxBufferSize: MCP_MESSAGE_MAX_BYTES,
  });
  const start = transport.start.bind(transport);
  transport.start = async () => {
    // The SDK's own reading of a line as JSON-RPC; loaded with the SDK already, so at once.
    const { deserializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
    // The SDK spawns the process, and listens to its stdout, before `start()` returns.
    const started = start();
    readStdoutLines(transport, {
      parse: deserializeMessage,
      max: MCP_MESSAGE_MAX_BYTES,
      tooLong: () => closeBecause(LINE_TOO_LONG),
      outputEnded: () => closeBecause(STDOUT_CLOSED, true),
    });
    return started;
  };
  // A flood closes the connection, killing the process (it is hostile): reading stops with it.
  const stderr = stderrTail((problem) => closeBecause(problem));
  transport.stderr?.on('data', stderr.take);
  return { transport, stderrTail: stderr.text, abandon: deafOnClose(transport, tag) };
}

/**
 * Ends a Streamable HTTP session on its server (a `DELETE`), so the server frees what it
 * holds for us, waiting at most `ms`: a server that does not answer must not hold up
 * `engine.close()` (closing the transport after aborts the request). Nothing to do for stdio,
 * whose process ends with its stdin.
 *
 * @example
 * ```ts
 * await endSession(await loadMcpSdk(), client.transport, 2_000);
 * await client.close();
 * ```
 */
export async function endSession(sdk: McpSdk, transport: Transport | undefined, ms: number): Promise<void> {
  if (!(transport instanceof sdk.StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([transport.terminateSession().catch(() => undefined), late]);
  clearTimeout(timer);
}
