import type { Subscriber } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';

/**
 * Where the events of one run go: its subscriber, in the order the run's parts produce them.
 * One per run, handed to every part.
 *
 * What a part streams while it runs (a step's `ContextSize`, `ReasonStart`, deltas and
 * `ReasonEnd`; a tool call's events, a task's wrapped child events among them) is delivered
 * here directly, and the part's own stream carries only its result, as its last value (a
 * step's answer, a call's text). The loop's own events (`RunStart`, `ActionStart`, `Budget`,
 * the `RunEnd`) travel with the phases of `sequencePhases$` instead, so that an abnormal
 * `RunEnd` can be held back until its turn is closed (`closingUnfinishedTurn`). Everything in
 * between is synchronous, so the two paths keep the order in which events were produced, and
 * the hottest path (every delta, every wrapped event) crosses no subscriber that would only
 * forward it.
 */
export class RunOutput {
  constructor(private readonly subscriber: Pick<Subscriber<AgentEvent>, 'next' | 'closed'>) {}

  /** True once the run's subscriber is gone (the run was stopped): nothing more is delivered. */
  get closed(): boolean {
    return this.subscriber.closed;
  }

  /** Delivers `event` now. */
  next(event: AgentEvent): void {
    this.subscriber.next(event);
  }
}
