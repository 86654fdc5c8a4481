import type { ChatMessage, ChatToolCall } from '../model/chat-message.js';
import { quotedClip } from '../text/quoted-clip.js';
import { INTERRUPTED_TOOL_RESULT } from './close-turn.js';
import type { TaskSessionInfo } from './session-store.js';

/** At most this many tasks are named in one repaired result (a multitask may have started hundreds). */
export const MAX_NAMED_TASKS = 20;

/** The calls that start tasks (`DELEGATION_TOOL_NAMES` lives above this layer; `generate` starts none). */
const DELEGATING: ReadonlySet<string> = new Set(['task', 'multitask']);

/**
 * The ids of the `task`/`multitask` calls that `tail` answers with {@link INTERRUPTED_TOOL_RESULT}:
 * the calls of the last assistant message of `stored` (the tail is what a load's repair adds
 * after the whole stored history, see `loadHistory$`). Empty when it answers none.
 *
 * @example
 * ```ts
 * interruptedDelegations(stored, tail); // ['call_7']
 * ```
 */
export function interruptedDelegations(stored: readonly ChatMessage[], tail: readonly ChatMessage[]): string[] {
  const delegating = new Set(delegatingCalls(stored).map((c) => c.id));
  return tail.flatMap((m) => (m.role === 'tool' && m.content === INTERRUPTED_TOOL_RESULT && delegating.has(m.tool_call_id) ? [m.tool_call_id] : []));
}

/** The `task`/`multitask` calls of the last assistant message of `stored`. */
function delegatingCalls(stored: readonly ChatMessage[]): ChatToolCall[] {
  const caller = stored.findLast((m) => m.role === 'assistant');
  return (caller?.role === 'assistant' ? (caller.tool_calls ?? []) : []).filter((c) => DELEGATING.has(c.function.name));
}

/**
 * The task id a `task` call resumes (its `task_id`), by call id. Read from the messages only
 * to let the task the call resumed be named although its id is in the history (its earlier
 * result): what is named still comes from the store, under that call's id.
 */
function resumedTasks(stored: readonly ChatMessage[]): Map<string, string> {
  const resumed = new Map<string, string>();
  for (const call of delegatingCalls(stored)) {
    if (call.function.name !== 'task') continue;
    try {
      const taskId: unknown = (JSON.parse(call.function.arguments) as { task_id?: unknown } | null)?.task_id;
      if (typeof taskId === 'string') resumed.set(call.id, taskId);
    } catch {
      // Arguments that are no JSON resumed nothing (the call was refused, or never ran).
    }
  }
  return resumed;
}

/**
 * `tail` with each interrupted result of a delegating call (see {@link interruptedDelegations})
 * naming the tasks that call started, so the model (and the user reading the conversation)
 * can resume them rather than start anew and repeat what they did. A task is named only when
 * the store records it as started by `sessionId`'s run of this conversation (`infos`, which
 * the caller asked of the store for the conversation: never an id read from the messages)
 * under that call's id (a resumed task records the call that resumed it: the latest), and its
 * id appears nowhere in `stored`: a server that reuses call ids across turns (`call_0`) would
 * otherwise name an earlier task whose result is already there. Only the task a cut `task`
 * call resumes (its `task_id`) is named although the history shows its earlier result.
 * At most {@link MAX_NAMED_TASKS} per result, in task id order, so the text is the same
 * whatever order the store listed them in.
 *
 * @example
 * ```ts
 * namingInterruptedTasks(stored, tail, await store.listTaskInfos(conversation), conversation);
 * // [{ role: 'tool', tool_call_id: 'call_7', content: 'ERROR: no result; ... The task task_1 was interrupted; ...' }, ...]
 * ```
 */
export function namingInterruptedTasks(stored: readonly ChatMessage[], tail: readonly ChatMessage[], infos: readonly TaskSessionInfo[], sessionId: string): ChatMessage[] {
  const calls = new Set(interruptedDelegations(stored, tail));
  const resumed = resumedTasks(stored);
  // A task the cut call resumes is shown in the history (its earlier result), and is still the one to resume.
  const mentioned = (info: TaskSessionInfo): boolean => resumed.get(info.callId!) !== info.taskId && stored.some((m) => typeof m.content === 'string' && m.content.includes(info.taskId));
  const byCall = new Map<string, TaskSessionInfo[]>();
  for (const info of infos) {
    if (info.callId === undefined || !calls.has(info.callId) || (info.parentSessionId ?? info.ownerSessionId) !== sessionId || mentioned(info)) continue;
    byCall.set(info.callId, [...(byCall.get(info.callId) ?? []), info]);
  }
  return tail.map((m) => {
    const tasks = m.role === 'tool' && calls.has(m.tool_call_id) ? byCall.get(m.tool_call_id) : undefined;
    return tasks && m.role === 'tool' ? { ...m, content: `${INTERRUPTED_TOOL_RESULT} ${resumeHint(tasks)}` } : m;
  });
}

/** What tells the model how to resume `tasks` (one or more). */
function resumeHint(tasks: readonly TaskSessionInfo[]): string {
  const sorted = [...tasks].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  if (sorted.length === 1) {
    const [t] = sorted as [TaskSessionInfo];
    return `The task ${t.taskId} (${shown(t)}) was interrupted; resume it with agent_name "${t.agentName}" and task_id "${t.taskId}".`;
  }
  const named = sorted.slice(0, MAX_NAMED_TASKS).map((t) => `${t.taskId} (${shown(t)})`);
  const more = sorted.length > MAX_NAMED_TASKS ? `, and ${sorted.length - MAX_NAMED_TASKS} more` : '';
  return `Its ${sorted.length} tasks were interrupted; resume each with its agent_name and task_id: ${named.join('; ')}${more}.`;
}

/** A task's agent and description as a repaired result shows them (the description quoted and cut). */
function shown(t: TaskSessionInfo): string {
  return `agent "${t.agentName}", ${quotedClip(t.description, 80)}`;
}
