import { ModelError } from './model-error.js';

/**
 * The most characters of one event the reader holds while waiting for its end: far above any chat chunk
 * (one delta, a few hundred bytes; a whole tool call's arguments in one chunk stay well
 * under it), far below what would strain the process.
 */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** The error of an event (or a line) longer than {@link MAX_EVENT_CHARS}. */
export function eventTooLong(model: string, events: number): ModelError {
  const limit = `${MAX_EVENT_CHARS / 1024 / 1024} MiB`;
  return new ModelError(`model "${model}": the server sent more than ${limit} without ending an event, after ${chunks(events)}: this is not a stream of server-sent events; the response was abandoned`);
}

/** The error of a body that ended with neither a `finish_reason` nor `[DONE]`: not SSE at all when no event came and `oddLine` did. */
export function cutShort(model: string, events: number, oddLine: string | undefined): ModelError {
  if (events === 0 && oddLine !== undefined) {
    const start = oddLine.length > 200 ? `${oddLine.slice(0, 200)}...` : oddLine;
    return new ModelError(`model "${model}": the response is not a stream of server-sent events; it began: ${start}`);
  }
  return new ModelError(
    `model "${model}": the stream ended after ${chunks(events)} without finish_reason or [DONE]: the connection was probably cut`,
  );
}

/** `1 chunk`, `3 chunks`. */
export function chunks(count: number): string {
  return `${count} chunk${count === 1 ? '' : 's'}`;
}
