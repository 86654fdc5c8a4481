import type { AgentEvent } from '../events/agent-event.js';
import { isWellFormedEvent } from '../events/guards.js';
import { storedObject } from './stored-object.js';

/**
 * An event read back from Redis (its JSON text), or undefined when it is not one: every
 * level of `TaskWrap` nesting must be a known event with the fields its type promises.
 * Whatever is stored there is not trusted (anyone with access to the Redis can write it), and
 * an event of the wrong shape would throw in whoever consumes it.
 *
 * @example
 * ```ts
 * storedEvent('{"type":"Warning","runId":"r","agentName":"main","code":"x","message":"y"}'); // the event
 * storedEvent('null'); // undefined
 * ```
 */
export function storedEvent(text: string | undefined): AgentEvent | undefined {
  const value = text === undefined ? undefined : storedObject(text);
  // The one check of each event type's fields, the browser client's too.
  return isWellFormedEvent(value) ? value : undefined;
}
