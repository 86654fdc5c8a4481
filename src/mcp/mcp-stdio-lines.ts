import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_STDIO_EXIT_GRACE_MS, processField, stdioChildOf, type StdioChild } from './mcp-stdio-exit.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const OPEN_BRACE = 0x7b;

/**
 * Splits a byte stream into lines (without their `\n`, nor the `\r` of a `\r\n`), in time
 * linear in what it is given: each chunk is scanned once, for its own `\n`s only, and the
 * pieces of an unfinished line are kept as a list, joined once when it ends. The MCP SDK's
 * stdio reader copied its whole buffer at every chunk: a server writing a line of nearly
 * 10 MiB and then a few bytes a millisecond kept the event loop busy for good. A line over
 * `max` bytes calls `tooLong` instead, once, and ends the splitting (nothing more is read).
 *
 * @example
 * ```ts
 * const feed = lineSplitter(10 * 1024 * 1024, (line) => console.log(line.toString()), () => stream.destroy());
 * stream.on('data', feed);
 * ```
 */
export function lineSplitter(max: number, onLine: (line: Buffer) => void, tooLong: () => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let held = 0;
  let over = false;
  const overflow = (): void => {
    over = true;
    parts = [];
    tooLong();
  };
  return (chunk) => {
    let start = 0;
    // `over` is checked at each line too: a line handled may lead to the reading being ended.
    for (let end = chunk.indexOf(LF); end !== -1 && !over; end = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (held + piece.length > max) return overflow();
      const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece], held + piece.length);
      parts = [];
      held = 0;
      onLine(line.at(-1) === CR ? line.subarray(0, -1) : line);
    }
    if (over || start === chunk.length) return;
    held += chunk.length - start;
    if (held > max) return overflow();
    parts.push(chunk.subarray(start));
  };
}

// How many bytes each message (or each error for a line that was no JSON-RPC) came in: read
// by the guard bounding what a server's unasked-for lines may cost (mcp-notification-guard).
const lineBytes = new WeakMap<object, number>();

/** The bytes of the stdout line `value` (a message, or the error for an unreadable line) was read from; 0 when it came otherwise (HTTP). */
export function lineBytesOf(value: object): number {
  return lineBytes.get(value) ?? 0;
}

/** What reads a stdio server's stdout in place of the SDK: its process's stdout, and how to read a line as JSON-RPC. */
export interface StdioReading {
  /** The SDK's own reading of a line (its `deserializeMessage`): JSON, then its JSON-RPC schema; throws for anything else. */
  readonly parse: (line: string) => JSONRPCMessage;
  /** At most this many bytes in one line. */
  readonly max: number;
  /** Told once when a line is over `max` (the connection should then be closed). */
  readonly tooLong: () => void;
  /**
   * Told once when the server closed its stdout and ran on past the grace (the connection
   * should then be closed, saying so); when absent, the transport is closed without a word.
   */
  readonly outputEnded?: () => void;
}

/**
 * Takes over reading a started stdio `transport`'s stdout from the SDK: its `data` listener
 * (added as the process was spawned) is removed, and the lines are split by
 * {@link lineSplitter} and handed on as the SDK would (`onmessage` for a JSON-RPC message,
 * `onerror` for a line that is none: one whose first byte past blanks is not `{` without
 * being decoded or parsed), each noted with its size ({@link lineBytesOf}). A server whose
 * stdout ends while it runs on is closed (see `closeWhenStdoutEnds`). Call it
 * right after the SDK's `start()` is called, before any data can come. Returns false, leaving
 * the SDK to read (slowly for long lines, yet bounded), when its process cannot be found (an
 * SDK that renamed its `_process` field).
 *
 * @example
 * ```ts
 * const started = start();
 * readStdoutLines(transport, { parse, max: 10 * 1024 * 1024, tooLong: () => void transport.close() });
 * await started;
 * ```
 */
export function readStdoutLines(transport: Transport, reading: StdioReading): boolean {
  const { child, stdout } = processOf(transport);
  if (stdout === undefined) return false;
  for (const listener of stdout.listeners('data')) stdout.off('data', listener as (chunk: Buffer) => void);
  const unreadable = (error: Error, line: Buffer): void => {
    lineBytes.set(error, line.length);
    transport.onerror?.(error);
  };
  const onLine = (line: Buffer): void => {
    // Junk (a log line, 10 MiB of it) is told from a message by its first byte, and counted
    // against the same bounds, without being decoded and parsed as JSON first.
    if (!mayBeMessage(line)) return unreadable(notAMessage(line), line);
    let message: JSONRPCMessage;
    try {
      message = reading.parse(line.toString('utf8'));
    } catch (e) {
      return unreadable(e instanceof Error ? e : new Error(String(e)), line);
    }
    lineBytes.set(message, line.length);
    transport.onmessage?.(message);
  };
  stdout.on('data', lineSplitter(reading.max, onLine, reading.tooLong));
  if (child !== undefined) closeWhenStdoutEnds(transport, child, stdout, reading.outputEnded);
  return true;
}

/**
 * A server that closes its stdout and runs on can answer nothing more, yet nothing noticed:
 * only its exit loses the connection, so the connection stayed running, every call waited
 * out its tool timeout (10 minutes by default), and the server was never started again. Once
 * its stdout has ended (`end`, or `close` without it), a process that has not exited within
 * {@link MCP_STDIO_EXIT_GRACE_MS} is closed as on any loss, which ends its whole process tree
 * (`deafOnClose`), after which the SDK's exit handling loses the connection. The grace is for
 * a server that is exiting (it closes its stdout first): its exit is the loss, and its
 * stderr is read to the end for the reason. A stdout that ended (`end`: the server closed
 * it) is told to `outputEnded`, which closes the connection saying why: "the server closed
 * the connection" left a user nothing to act on. One closed without ending is our own close
 * (it destroys the stream), which must not be blamed on the server: it is only waited for.
 */
function closeWhenStdoutEnds(transport: Transport, child: StdioChild, stdout: Readable, outputEnded?: () => void): void {
  let timer: NodeJS.Timeout | undefined;
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const close = (): void => void transport.close().catch(() => undefined);
  const ended = (stop: () => void): void => {
    if (timer !== undefined || exited()) return;
    const gone = (): void => clearTimeout(timer);
    child.once('exit', gone);
    timer = setTimeout(() => {
      child.off('exit', gone);
      // Closed already (our own close ends its stdout too), this waits for that close only.
      if (!exited()) stop();
    }, MCP_STDIO_EXIT_GRACE_MS);
  };
  stdout.once('end', () => ended(outputEnded ?? close));
  stdout.once('close', () => ended(close));
}

/**
 * Whether `line` may hold a JSON-RPC message: its first byte past JSON's whitespace is `{`.
 * The SDK reads a line as one message, an object (its schema is a union of objects: a batch,
 * `[...]`, is refused like any other non-object), so any other line fails its parse anyway.
 */
function mayBeMessage(line: Buffer): boolean {
  for (let i = 0; i < line.length; i++) {
    const byte = line[i];
    if (byte !== SPACE && byte !== TAB && byte !== CR && byte !== LF) return byte === OPEN_BRACE;
  }
  return false;
}

/** The error for a line that is no JSON-RPC message, naming its size and how it starts (a few bytes of it). */
function notAMessage(line: Buffer): Error {
  const start = JSON.stringify(line.subarray(0, 40).toString('utf8'));
  return new Error(`a line of ${line.length} bytes that is no JSON-RPC message (it starts ${start}${line.length > 40 ? '...' : ''}, not with "{")`);
}

/** The stdout of the SDK's process, as far as it is used. */
interface Readable {
  listeners(event: 'data'): unknown[];
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
  once(event: 'end' | 'close', listener: () => void): unknown;
}

/**
 * The SDK's process and its stdout, each looked up by shape (`processField`, `stdioChildOf`):
 * an SDK that changed them costs the reading (or only the close on stdout's end), never a crash.
 */
function processOf(transport: Transport): { readonly child?: StdioChild; readonly stdout?: Readable } {
  return { child: stdioChildOf(transport), stdout: readable((processField(transport) as { stdout?: unknown } | undefined)?.stdout) };
}

function readable(stdout: unknown): Readable | undefined {
  if (typeof stdout !== 'object' || stdout === null) return undefined;
  const { listeners, on, off, once } = stdout as { listeners?: unknown; on?: unknown; off?: unknown; once?: unknown };
  const usable = typeof listeners === 'function' && typeof on === 'function' && typeof off === 'function' && typeof once === 'function';
  return usable ? (stdout as Readable) : undefined;
}
