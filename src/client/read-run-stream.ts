import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { isRunEnd, isWellFormedEvent } from '../events/guards.js';
import type { SequencedEvent } from '../runs/run-types.js';
import { eventDepthLimit, MAX_DELEGATION_DEPTH, nestsDeeper } from '../validation/json-depth.js';
import { RunStreamError } from './client-errors.js';
import { MAX_SERVER_TEXT, MAX_SERVER_WORDS, serverText } from './server-text.js';

/** How one connection to a run's event stream ended. */
export type StreamOutcome =
  /** The run's own (unwrapped) `RunEnd` was delivered: the run is over, whatever the server sends next. */
  | { readonly kind: 'run-end' }
  /** The server said `event: end` (before any `RunEnd` on this connection). */
  | { readonly kind: 'end' }
  | { readonly kind: 'cancelled'; readonly reason: string }
  | { readonly kind: 'failed'; readonly name: string; readonly message: string }
  /** The connection ended, broke or went silent before the run did: connect again after the last seq. */
  | { readonly kind: 'dropped'; readonly cause: unknown };

/** What reading a stream needs to know and tell. */
export interface StreamReading {
  readonly runId: string;
  /** The most characters one message may buffer before the stream is refused. */
  readonly maxMessageLength: number;
  /** Aborted when the consumer leaves or the connection went silent too long: the read stops. */
  readonly signal: AbortSignal;
  /** The last seq delivered so far (older ones arriving again are skipped). */
  last(): number;
  /** Delivers the next event; returns false when the consumer has gone. */
  deliver(entry: SequencedEvent): boolean;
  /**
   * Called for every whole message and every comment line (the server's `: keep-alive`): the
   * connection lives. Not for the bytes of a message still on its way: a server trickling one
   * byte at a time, never finishing a message, must not keep the connection forever.
   */
  alive(): void;
}

/**
 * Reads one response body of `GET /runs/:id/events` with `eventsource-parser` (browser-safe,
 * one linear pass): each message's `SequencedEvent` is delivered once, in order (one already
 * seen is skipped, one past a gap drops the connection so it resumes from the gap), until
 * the run's own `RunEnd` (nothing after it is read: it is the run's last event), or
 * `event: end`, `cancelled` or `error`, or until the body ends, breaks or `signal` aborts.
 * A message that is not a well-formed event of this run, or one longer than
 * `maxMessageLength`, throws a {@link RunStreamError}: following it further is pointless.
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
    // Without a cap a line that never ends (or a message of endless `data:` lines) is held whole.
    maxBufferSize: reading.maxMessageLength,
    onError: (error) => {
      if (error.type !== 'max-buffer-size-exceeded') return; // a bad `retry:` or an unknown field: nothing of ours
      fatal = new RunStreamError(reading.runId, 'MessageTooLarge', `a message of the event stream is longer than ${reading.maxMessageLength} characters (maxMessageLength)`, 'client');
      stopped = true;
    },
    // Only whole frames count as life: see `alive`.
    onComment: () => reading.alive(),
    onEvent: (message) => {
      reading.alive();
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
  // A body that ignores the abort (a test double, a fetch of someone's own) still ends its read.
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  reading.signal.addEventListener('abort', cancel, { once: true });
  try {
    while (outcome === undefined && !stopped && !reading.signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (fatal === undefined) return { kind: 'dropped', cause: reading.signal.aborted ? reading.signal.reason : error };
  } finally {
    reading.signal.removeEventListener('abort', cancel);
    // done with this response (its end, a gap, a consumer gone): let the connection go
    if (outcome !== undefined || stopped) cancel();
  }
  if (fatal) throw fatal;
  if (stopped) return { kind: 'dropped', cause: new Error('the consumer went away') };
  if (outcome === undefined && reading.signal.aborted) return { kind: 'dropped', cause: reading.signal.reason };
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
      if (!reading.deliver(entry)) return 'stop';
      return isRunEnd(entry.event) ? { kind: 'run-end' } : undefined;
    }
    case 'end':
      return { kind: 'end' };
    case 'cancelled': {
      const reason = fields(message.data).reason;
      return { kind: 'cancelled', reason: serverText(reason ?? 'the run was cancelled', MAX_SERVER_TEXT) };
    }
    case 'error': {
      // cut before anything marks them: see MAX_SERVER_TEXT
      const { name, message: text } = fields(message.data);
      return {
        kind: 'failed',
        name: serverText(name ?? 'Error', MAX_SERVER_WORDS),
        message: text !== undefined ? serverText(text, MAX_SERVER_TEXT) : serverText(message.data, MAX_SERVER_WORDS),
      };
    }
    default:
      return undefined; // an event type of a later version: not ours to act on
  }
}

/**
 * How deep one message of the stream may nest arrays and objects: the deepest event of a run
 * under as many `TaskWrap`s as `parseNdjson` takes by default (64; the engine nests one per
 * level of delegation, its `maxDepth`, 1 by default). See `eventDepthLimit`.
 */
export const MAX_MESSAGE_DEPTH = eventDepthLimit(MAX_DELEGATION_DEPTH);

function parseEntry(data: string, runId: string): SequencedEvent {
  // Counted in the text, before anything walks the parsed value (isWellFormedEvent, the consumer).
  if (nestsDeeper(data, MAX_MESSAGE_DEPTH)) {
    throw new RunStreamError(runId, 'BadMessage', `the server sent a message that nests arrays and objects more than ${MAX_MESSAGE_DEPTH} deep, deeper than any event of a run: ${data.slice(0, 120)}`, 'client');
  }
  let entry: Partial<SequencedEvent> | undefined;
  try {
    entry = JSON.parse(data) as Partial<SequencedEvent>;
  } catch {
    // reported below
  }
  // Every field the event's type promises, at every level: the page's reducer and views read them without looking.
  if (entry?.runId !== runId || !Number.isSafeInteger(entry.seq) || !isWellFormedEvent(entry.event)) {
    throw new RunStreamError(runId, 'BadMessage', `the server sent a message that is not an event of this run: ${data.slice(0, 120)}`, 'client');
  }
  return entry as SequencedEvent;
}

/** The string fields of a JSON object message (parsed once: it may be MiBs); none for anything else. */
function fields(data: string): Readonly<Record<string, string | undefined>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const strings: Record<string, string> = {};
  for (const key of ['name', 'message', 'reason']) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string') strings[key] = value;
  }
  return strings;
}
