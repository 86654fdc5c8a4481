import pLimit, { type LimitFunction } from 'p-limit';
import { defer, throwError } from 'rxjs';
import type { ChatModel, ChatRequest } from './chat-model.js';
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
  /** `model`, with each of its requests sent only when a slot is free. */
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

/** What each request asks as it gets its slot (see {@link checkInSlot}); keyed by the request object, which reaches the limiter as its run made it (the limiter wraps the user's model, never the other way round). */
const slotChecks = new WeakMap<ChatRequest, () => Error | undefined>();

/**
 * Has `check` asked when `request` gets its slot of a limiter, before it is sent: an error it
 * answers fails the request instead, unsent. A request may wait long for its slot, and what
 * let it through may no longer hold (a token budget the requests before it spent). Without
 * a limiter it is never asked: the request is sent as soon as it is made.
 *
 * @example
 * ```ts
 * checkInSlot(request, () => (budget.remaining() > 0 ? undefined : new Error('spent')));
 * ```
 */
export function checkInSlot(request: ChatRequest, check: () => Error | undefined): void {
  slotChecks.set(request, check);
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
          const refused = slotChecks.get(request)?.();
          return refused ? throwError(() => refused) : model.stream(request);
        }),
      ),
    ...(model.contextWindow ? { contextWindow: () => model.contextWindow!() } : {}),
  };
  if (marksPartialReplies(model)) notePartialReplyMarker(limited);
  return limited;
}
