import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { isAgentEvent } from '../events/guards.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { RunStreamError } from './client-errors.js';

/** How one connection to a run's event stream ended. */
export type StreamOutcome =
  | { readonly kind: 'end' }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'failed'; readonly name: string; readonly message: string }
  /** The connection ended or broke before the run did: connect again after the last seq. */
  | { readonly kind: 'dropped'; readonly cause: unknown };

/** What reading a stream needs to know and tell. */
export interface StreamReading {
  readonly runId: string;
  /** The last seq delivered so far (older ones arriving again are skipped). */
  last(): number;
  /** Delivers the next event; returns false when the consumer has gone. */
  deliver(entry: SequencedEvent): boolean;
}

/**
 * Reads one response body of `GET /runs/:id/events` with `eventsource-parser` (browser-safe,
 * one linear pass): each message's `SequencedEvent` is delivered once, in order (one already
 * seen is skipped, one past a gap drops the connection so it resumes from the gap), until
 * `event: end`, `cancelled` or `error`, or until the body ends or breaks. A message that is
 * not an event of this run throws a {@link RunStreamError}: following it further is pointless.
 *
 * @example
 * ```ts
 * const outcome = await readRunStream(response.body, reading);
 * ```
 */
export async function readRunStream(body: ReadableStream<Uint8Array>, reading: StreamReading): Promise<StreamOutcome> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let outcome: StreamOutcome | undefined;
  let stopped = false;
  let fatal: RunStreamError | undefined;
  const parser = createParser({
    onEvent: (message) => {
      if (outcome !== undefined || stopped) return;
      try {
        const next = onMessage(message, reading);
        if (next === 'stop') stopped = true;
        else outcome = next;
      } catch (error) {
        // not thrown through the parser: the read loop below would take it for a broken connection
        fatal = error as RunStreamError;
        stopped = true;
      }
    },
  });
  try {
    while (outcome === undefined && !stopped) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    return { kind: 'dropped', cause: error };
  } finally {
    // done with this response (its end, a gap, a consumer gone): let the connection go
    if (outcome !== undefined || stopped) reader.cancel().catch(() => undefined);
  }
  if (fatal) throw fatal;
  if (stopped) return { kind: 'dropped', cause: new Error('the consumer went away') };
  return outcome ?? { kind: 'dropped', cause: new Error('the server closed the stream before the run ended') };
}

/** One message: an event delivered (undefined: read on), an ending, or `stop` (the consumer left). */
function onMessage(message: EventSourceMessage, reading: StreamReading): StreamOutcome | 'stop' | undefined {
  switch (message.event) {
    case undefined:
    case 'message': {
      const entry = parseEntry(message.data, reading.runId);
      const last = reading.last();
      if (entry.seq <= last) return undefined; // already delivered
      if (entry.seq !== last + 1) return { kind: 'dropped', cause: new Error(`expected event ${last + 1}, got ${entry.seq}`) };
      return reading.deliver(entry) ? undefined : 'stop';
    }
    case 'end':
      return { kind: 'end' };
    case 'cancelled':
      return { kind: 'cancelled', reason: field(message.data, 'reason') ?? 'the run was cancelled' };
    case 'error':
      return { kind: 'failed', name: field(message.data, 'name') ?? 'Error', message: field(message.data, 'message') ?? message.data };
    default:
      return undefined; // an event type of a later version: not ours to act on
  }
}

function parseEntry(data: string, runId: string): SequencedEvent {
  let entry: Partial<SequencedEvent> | undefined;
  try {
    entry = JSON.parse(data) as Partial<SequencedEvent>;
  } catch {
    // reported below
  }
  if (entry?.runId !== runId || !Number.isSafeInteger(entry.seq) || !isAgentEvent(entry.event)) {
    throw new RunStreamError(runId, 'BadMessage', `the server sent a message that is not an event of this run: ${data.slice(0, 120)}`);
  }
  return entry as SequencedEvent;
}

function field(data: string, name: string): string | undefined {
  try {
    const value = (JSON.parse(data) as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
