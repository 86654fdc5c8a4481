import type { ChatMessage } from '../model/chat-message.js';
import { interruptedDelegations, namingInterruptedTasks } from '../session/interrupted-tasks.js';
import type { MaybePromise, TaskSessionInfo } from '../session/session-store.js';
import { taskSessionInfoOf } from '../session/task-session-info.js';
import type { AgentScope } from './agent-scope.js';
import type { RunInput } from './run-scope.js';

/**
 * `tail` (messages about to be saved after `stored`: a load's repair of a turn a crash left
 * open, or the closing messages of a turn stopped by an error or a cancel) with its
 * interrupted `task`/`multitask` results naming the tasks the store records for those calls
 * (`namingInterruptedTasks`), else the tail itself: asked of the store only when there is such
 * a result. Named in the tail alone, which is saved once: the text never changes afterwards
 * (the prompt prefix stays byte-stable). A store without `listTaskInfos`, or one failing to
 * list, leaves the plain interrupted result. Never throws, and a promise it answers never rejects.
 *
 * @example
 * ```ts
 * const saved = await namedTail(agent, input, stored, closingMessages(turn, 'the run was cancelled'));
 * ```
 */
export function namedTail(agent: AgentScope, input: RunInput, stored: readonly ChatMessage[], tail: readonly ChatMessage[]): MaybePromise<readonly ChatMessage[]> {
  const sessions = agent.sessions;
  if (typeof sessions.listTaskInfos !== 'function' || interruptedDelegations(stored, tail).length === 0) return tail;
  // Every task of the tree is recorded under the conversation (`ownerSessionId`), whichever run started it.
  const owner = agent.task?.rootSessionId ?? input.sessionId;
  // Each entry checked as a stored task record is: a custom store's odd answer names nothing.
  const named = (infos: readonly TaskSessionInfo[]): readonly ChatMessage[] =>
    namingInterruptedTasks(stored, tail, Array.isArray(infos) ? infos.flatMap((i) => taskSessionInfoOf(i) ?? []) : [], input.sessionId);
  try {
    const infos = sessions.listTaskInfos(owner);
    return infos instanceof Promise ? infos.then(named).catch(() => tail) : named(infos);
  } catch {
    return tail; // naming the tasks is a courtesy: a store failing to list must not fail the run
  }
}
