import { DefaultExecutionEventBusManager, type AgentExecutionEvent, type ExecutionEventBus, type ServerCallContext } from '@a2a-js/sdk/server';

/** The key under which the handler leaves, in a subscription's call context, the signal that its client has left. */
export const CLIENT_LEFT_KEY = 'rxharness.clientLeft';

type EventListener = (event: AgentExecutionEvent) => void;
type FinishedListener = () => void;
type Name = 'event' | 'finished';

/**
 * The SDK's bus manager, but a subscription to a task (`tasks/resubscribe`,
 * `SubscribeToTask`) whose call context carries a {@link CLIENT_LEFT_KEY} signal gets a
 * {@link LeavableView} of the task's bus, which ends the subscription when the signal aborts.
 * Without it, the SDK's subscription waits on the bus for the task's next event even after
 * its client has gone (a closed generator returns only at its next `yield`): each subscriber
 * that left kept its queue and listeners, some 14 KB, for as long as the task stayed quiet (an
 * approval can take hours), so a client resubscribing in a loop grew the server without bound.
 */
export class LeavableBusManager extends DefaultExecutionEventBusManager {
  override getByTaskId(taskId: string, context?: ServerCallContext): ExecutionEventBus | undefined {
    const bus = super.getByTaskId(taskId, context);
    const left = context?.state.get(CLIENT_LEFT_KEY);
    return bus !== undefined && left instanceof AbortSignal ? new LeavableView(bus, left) : bus;
  }
}

/**
 * A task's bus as one subscriber sees it: what it publishes and listens to is the bus's, and
 * when `left` aborts, its own `finished` listeners are called (the SDK's queue then stops and
 * takes its listeners off the bus). The bus's other listeners are never touched.
 */
class LeavableView implements ExecutionEventBus {
  readonly #own = new Set<{ readonly name: Name; readonly listener: EventListener | FinishedListener }>();

  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly left: AbortSignal,
  ) {
    left.addEventListener('abort', this.#leave, { once: true });
  }

  publish(event: AgentExecutionEvent): void {
    this.bus.publish(event);
  }

  finished(): void {
    this.bus.finished();
  }

  on(name: 'event', listener: EventListener): this;
  on(name: 'finished', listener: FinishedListener): this;
  on(name: Name, listener: EventListener | FinishedListener): this {
    this.bus.on(name as 'event', listener as EventListener);
    this.#own.add({ name, listener });
    // already gone: ended as soon as it begins
    if (name === 'finished' && this.left.aborted) queueMicrotask(this.#leave);
    return this;
  }

  off(name: 'event', listener: EventListener): this;
  off(name: 'finished', listener: FinishedListener): this;
  off(name: Name, listener: EventListener | FinishedListener): this {
    this.bus.off(name as 'event', listener as EventListener);
    for (const own of this.#own) if (own.name === name && own.listener === listener) this.#own.delete(own);
    if (this.#own.size === 0) this.left.removeEventListener('abort', this.#leave);
    return this;
  }

  once(name: 'event', listener: EventListener): this;
  once(name: 'finished', listener: FinishedListener): this;
  once(name: Name, listener: EventListener | FinishedListener): this {
    this.bus.once(name as 'event', listener as EventListener);
    return this;
  }

  /** Takes this subscriber's listeners off the bus (not the others'). */
  removeAllListeners(name?: Name): this {
    for (const own of [...this.#own]) if (name === undefined || own.name === name) this.off(own.name as 'event', own.listener as EventListener);
    return this;
  }

  readonly #leave = (): void => {
    for (const own of [...this.#own]) if (own.name === 'finished') (own.listener as FinishedListener)();
  };
}
