import pLimit, { type LimitFunction } from 'p-limit';
import { defer, throwError } from 'rxjs';
import type { ChatModel } from './chat-model.js';
import { inSlot$ } from './in-slot.js';
import { marksPartialReplies, notePartialReplyMarker } from './partial-reply.js';

/**
 * The engine-wide bound on model requests in flight (`maxConcurrentRequests`): one p-limit
 * limiter shared by every model of an engine, across all its runs and depths. A leaf limit:
 * a request never waits for another request, so no run can deadlock on it (a parent holding a
 * slot while its children wait for one would; but a parent's request has ended before its
 * tools, and so its children, start).
 *
 * @example
 * ```ts
 * const limiter = requestLimiter(4);
 * const model = limiter.wrap(new OpenAIChatModel({ model: 'gpt-4o-mini' }));
 * ```
 */
export interface RequestLimiter {
  /** `model`, with each of its requests sent only when a slot is free, and then only if its `admit` (`ChatRequest.admit`) lets it. */
  wrap(model: ChatModel): ChatModel;
  /** Requests sent now. */
  readonly active: number;
  /** Requests waiting for a slot. */
  readonly waiting: number;
}

/** A {@link RequestLimiter} of `max` slots. */
export function requestLimiter(max: number): RequestLimiter {
  const limit = pLimit(max);
  return {
    wrap: (model) => limitRequests(model, limit),
    get active() {
      return limit.activeCount;
    },
    get waiting() {
      return limit.pendingCount;
    },
  };
}

/**
 * `model` whose requests take a slot of `limit` (its other members read through to it). Its
 * errors are `model`'s own objects, so a model whose reader marks what a failed reply brought
 * still does through the wrapper: the wrapper is registered as marking too, else a step would
 * count that reply's deltas a second time.
 */
function limitRequests(model: ChatModel, limit: LimitFunction): ChatModel {
  const limited: ChatModel = {
    get id() {
      return model.id;
    },
    get settings() {
      return model.settings;
    },
    // The request is made inside the slot: its HTTP call starts when the slot is given.
    stream: (request) =>
      inSlot$(
        limit,
        defer(() => {
          // What let the request through may have changed while it waited (see `ChatRequest.admit`).
          const refused = request.admit?.();
          return refused ? throwError(() => refused) : model.stream(request);
        }),
      ),
    ...(model.contextWindow ? { contextWindow: () => model.contextWindow!() } : {}),
  };
  if (marksPartialReplies(model)) notePartialReplyMarker(limited);
  return limited;
}
