/**
 * The bounds on what a model writes to name a task: its `description` (a label of a few
 * words) and, when the task is refused, its `agent_name` and `task_id`. The description is
 * copied into every event of the child (`TaskWrap.taskDescription`, serialized anew in each
 * event a stream sends), the task's result, its tracker entry and its stored info: a
 * model's megabyte label would be copied thousands of times. The refused names go into the
 * error, the result and the refusal's events.
 *
 * @module
 */
import { MAX_AGENT_NAME_CHARS } from '../subagent/front-matter-schema.js';
import { headOf } from '../text/whole-chars.js';
import { MAX_QUOTED_NAME_CHARS } from '../tools/args-validator.js';
import type { TaskRequest } from './delegation-types.js';
import { truncate } from './task-result-format.js';

/** The longest task `description` kept; a longer one keeps its start and ends with `…`. */
export const MAX_TASK_DESCRIPTION_CHARS = 200;

/** `text` at most `max` characters long: whole, or its start and `…`. */
function clipLabel(text: string, max: number): string {
  return text.length <= max ? text : `${headOf(text, max - 1)}…`;
}

/**
 * `request` with its description cut to {@link MAX_TASK_DESCRIPTION_CHARS}.
 *
 * @example
 * ```ts
 * boundedRequest({ ...request, description: 'x'.repeat(10_000) }).description.length; // 200
 * ```
 */
export function boundedRequest(request: TaskRequest): TaskRequest {
  if (request.description.length <= MAX_TASK_DESCRIPTION_CHARS) return request;
  return { ...request, description: clipLabel(request.description, MAX_TASK_DESCRIPTION_CHARS) };
}

/**
 * An agent name no agent has, as a refusal shows it: no agent's name is longer than
 * `MAX_AGENT_NAME_CHARS`, so a longer one keeps its start and ends with `…`.
 *
 * @example
 * ```ts
 * shownAgentName('g'.repeat(1_000)).length; // 64
 * ```
 */
export function shownAgentName(name: string): string {
  return clipLabel(name, MAX_AGENT_NAME_CHARS);
}

/**
 * The `task_id` a refused task shows (its result, its events): an id this engine made is
 * short, so one past `MAX_QUOTED_NAME_CHARS` is a model's invention and keeps its start and `…`.
 *
 * @example
 * ```ts
 * shownTaskId('x'.repeat(100_000)).length; // 120
 * ```
 */
export function shownTaskId(taskId: string): string {
  return clipLabel(taskId, MAX_QUOTED_NAME_CHARS);
}

/**
 * The `prompt` a task that never ran shows in its events (the `RunStart` of a refused task, or
 * of one cancelled while it waited for a slot): cut like a result, at `maxResultChars`, with
 * the usual marker. Nothing read it, and a model's megabyte prompt for an unknown agent would
 * otherwise go whole to every stream reader and event log, once per refused entry.
 *
 * @example
 * ```ts
 * shownPrompt('p'.repeat(100_000), 12_000); // its first 12,000 characters and the marker
 * ```
 */
export function shownPrompt(prompt: string, maxResultChars: number): string {
  return truncate(prompt, maxResultChars);
}
