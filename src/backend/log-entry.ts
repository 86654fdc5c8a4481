import type { AgentEvent } from '../events/agent-event.js';
import type { LogEnding, SequencedEvent } from '../runs/run-types.js';
import { storedEvent } from './stored-event.js';
import { storedObject } from './stored-object.js';

/** One entry of a run's stream, read and checked: an event, the end, the open marker, or something else. */
export type LogEntry =
  | { readonly kind: 'event'; readonly seq: number; readonly event: AgentEvent }
  | { readonly kind: 'end'; readonly ending: LogEnding }
  | { readonly kind: 'open' }
  | { readonly kind: 'bad'; readonly problem: string };

/**
 * The fields of a run's event as its stream entry holds them (`s`, its seq; `e`, the event's
 * JSON): what {@link readLogEntry} reads back, written in one place for `RedisEventLog.append`
 * and a worker's first event (`appendFirstIfOpen`).
 *
 * @example
 * ```ts
 * logEntryFields({ runId: 'r', seq: 1, event }); // ['s', '1', 'e', '{"type":"RunStart",...}']
 * ```
 */
export function logEntryFields(entry: SequencedEvent): string[] {
  return ['s', String(entry.seq), 'e', JSON.stringify(entry.event)];
}

/**
 * Reads the fields of one stream entry (`s` and `e` for an event, `end`, or `open`), checking
 * each: a seq must be a positive safe integer, an event an `AgentEvent` with the fields of its
 * type, an ending one of the three. Anything else is `bad`, with what is wrong, for a Warning.
 *
 * @example
 * ```ts
 * readLogEntry(['s', '1', 'e', 'null']); // { kind: 'bad', problem: 'its event is not an event of a run (null)' }
 * ```
 */
export function readLogEntry(fields: readonly string[]): LogEntry {
  const field = (name: string): string | undefined => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
    return undefined;
  };
  const seqText = field('s');
  if (seqText !== undefined) {
    const seq = Number(seqText);
    if (!Number.isSafeInteger(seq) || seq < 1 || String(seq) !== seqText) return { kind: 'bad', problem: `its seq ${shorten(seqText)} is not a positive integer` };
    const text = field('e');
    const event = storedEvent(text);
    return event ? { kind: 'event', seq, event } : { kind: 'bad', problem: `its event (seq ${seq}) is not an event of a run: ${shorten(text ?? 'missing')}` };
  }
  const endText = field('end');
  if (endText !== undefined) {
    const ending = logEnding(endText);
    return ending ? { kind: 'end', ending } : { kind: 'bad', problem: `its end ${shorten(endText)} is not a log ending` };
  }
  if (field('open') !== undefined) return { kind: 'open' };
  return { kind: 'bad', problem: `it has none of the fields a log entry has (${shorten(fields.join(' '))})` };
}

function logEnding(text: string): LogEnding | undefined {
  const v = storedObject(text);
  if (v?.['kind'] === 'complete') return { kind: 'complete' };
  if (v?.['kind'] === 'cancelled' && typeof v['reason'] === 'string') return { kind: 'cancelled', reason: v['reason'] };
  if (v?.['kind'] === 'failed' && typeof v['message'] === 'string') {
    // The error's identity too (name, code), so readers error with the same kind of error.
    const { name, code } = v;
    return { kind: 'failed', message: v['message'], ...(typeof name === 'string' ? { name } : {}), ...(typeof code === 'string' ? { code } : {}) };
  }
  return undefined;
}

/** A stored text short enough for a message. */
function shorten(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
