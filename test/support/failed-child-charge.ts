/**
 * What a child's failed model request was charged against the tree's `tokenBudget`: the main
 * agent delegates once to `worker` and then answers, at 1 token a step, so whatever else the
 * last `Budget` event counts is the worker's charge.
 *
 * @module
 */
import type { AgentEvent, ContextSizeEvent } from '../../src/events/agent-event.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { testAgent } from './agent-turns.js';
import { collect, own, wraps } from './collect-events.js';
import type { AgentRoute, DelegationFixture } from './delegation-fixture.js';
import { taskReply } from './delegation-script.js';

/** A usage of 1 token: the main agent's steps, told apart from the worker's charge. */
export const ONE_TOKEN = { prompt_tokens: 0, completion_tokens: 1, total_tokens: 1 };

/** The main agent's route: `task` to `worker`, then an answer. */
export const delegateOnce: AgentRoute = (t) => (t.step === 1 ? { ...taskReply('worker', 'dig'), usage: ONE_TOKEN } : { text: 'gave up', usage: ONE_TOKEN });

/** What one delegation charged the worker's request. */
export interface ChildCharge {
  /** Tokens charged for the worker's request (the last `Budget`'s `used` less the main agent's two steps). */
  readonly charged: number;
  /** The worker's prompt estimate (`ContextSize.tokenCount` of its request). */
  readonly prompt: number;
  /** The worker's `RunEnd`. */
  readonly childEnd: AgentEvent;
}

/** Runs the delegation on `f` with `worker` answered by `route`; `options` go to the engine (a `model` of the test's own, say). */
export async function chargeOfChild(f: DelegationFixture, route: AgentRoute, options: Partial<HarnessEngineOptions> = {}, worker: AgentDefinition = testAgent('worker')): Promise<ChildCharge> {
  f.route({ main: delegateOnce, worker: route });
  const events = await collect(f.engine({ tokenBudget: 100_000_000, ...options }, [worker]).stream('go'));
  const inner = wraps(events).map((w) => w.event);
  const prompt = (inner.find((e) => e.type === 'ContextSize') as ContextSizeEvent).tokenCount;
  const childEnd = inner.find((e) => e.type === 'RunEnd')!;
  return { charged: own(events, 'Budget').at(-1)!.used - 2, prompt, childEnd };
}
